/**
 * One subscriber's server-sent events response (WHATWG HTML "Server-sent events"): `retry:` first, then
 * what the client missed (Last-Event-ID, from the backlog) or a reset with the current live set, then a
 * `stream.open` carrying the id the client is up to date at, then each matching change as it happens.
 * Comment lines keep idle connections open through proxies. A client that stops reading is cut off once
 * its unread bytes pass a bound (memory stays flat); it reconnects with its Last-Event-ID and resumes.
 */
import type { ChangeFeed } from './feed.js';
import { matches, type StreamFilter } from './filter.js';
import { streamDefaults } from './limits.js';
import type { Change } from './messages.js';

export interface SseOptions {
  heartbeatMs?: number;
  retryMs?: number;
  /** Unread bytes a client may hold before its stream is closed (it resumes on reconnect). */
  maxBufferedBytes?: number;
}

const encoder = new TextEncoder();
const API = '/api/v1';

/** One SSE message; JSON has no raw newlines, so `data:` is one line. */
export function sseMessage(type: string, data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

function changeMessage(c: Change): string {
  return sseMessage(c.body.type, { id: c.id, at: c.at, ...c.body }, c.id);
}

/**
 * `account`: the authenticated caller's account, whose trigger messages this stream carries; undefined for
 * anonymous callers, who get event messages only.
 */
export function sseStream(
  feed: ChangeFeed,
  filter: StreamFilter,
  lastEventId: string | null,
  o: SseOptions = {},
  account?: string,
): ReadableStream<Uint8Array> {
  const heartbeatMs = o.heartbeatMs ?? streamDefaults.heartbeatMs;
  const maxBuffered = o.maxBufferedBytes ?? 4 * 1024 * 1024;
  let stop = () => {};
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let open = true;
        // eslint-disable-next-line prefer-const -- end() can run before the interval starts (a failed first send): it must see undefined, not a temporal-dead-zone error
        let heartbeat: NodeJS.Timeout | undefined;
        const end = () => {
          if (!open) return;
          open = false;
          clearInterval(heartbeat);
          unsubscribe();
          try {
            controller.close();
          } catch {
            /* already cancelled by the client */
          }
        };
        const send = (text: string) => {
          if (!open) return;
          controller.enqueue(encoder.encode(text));
          if ((controller.desiredSize ?? 0) < -maxBuffered) end(); // a client that stopped reading
        };
        // Resume and subscribe in one synchronous step: a change published in between cannot fall through.
        const resume = lastEventId ? feed.resume(lastEventId) : undefined;
        const head = feed.headId;
        const mine = (c: Change) => (c.account === undefined || c.account === account) && matches(filter, c);
        const unsubscribe = feed.subscribe((changes) => changes.forEach((c) => mine(c) && send(changeMessage(c))), end);
        stop = end;

        send(`retry: ${o.retryMs ?? streamDefaults.retryMs}\n\n`);
        if (resume?.kind === 'changes') {
          for (const c of resume.changes) if (mine(c)) send(changeMessage(c));
        } else if (resume?.kind === 'reset') {
          // No id on these: a client cut off mid-reset reconnects with its old id and gets the whole reset again.
          send(sseMessage('reset', { type: 'reset', reason: resume.reason, events_url: `${API}/events/live` }));
          for (const event of feed.live()) {
            if (matches(filter, { body: { type: 'event.updated', event }, subject: event }))
              send(sseMessage('event.snapshot', { type: 'event.snapshot', event }));
          }
        }
        send(
          sseMessage(
            'stream.open',
            { type: 'stream.open', id: head, backlog_size: feed.backlogCapacity, heartbeat_s: heartbeatMs / 1000 },
            head,
          ),
        );
        heartbeat = setInterval(() => send(`: heartbeat ${new Date().toISOString()}\n\n`), heartbeatMs);
        heartbeat.unref();
      },
      cancel() {
        stop(); // the client went away
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
  );
}
