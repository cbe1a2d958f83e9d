/**
 * Content negotiation for the event collections (live, nearby, an event's rings): a client that lists `application/vnd.apache.arrow.stream`
 * in Accept gets the page as an Arrow IPC stream (src/columnar/event-table.ts); everyone else gets the JSON
 * they get today, whatever else Accept says (JSON is the default, and an Accept we cannot meet is not an
 * error). Arrow wins when it is listed with q > 0 and no JSON type or wildcard is given a higher q.
 */
import { tableToIPC } from 'apache-arrow';
import { eventTable, type EventPage } from '../columnar/event-table.js';

export const ARROW_STREAM = 'application/vnd.apache.arrow.stream';

/** The handlers whose answers have an Arrow form. */
export const ARROW_HANDLERS = new Set(['events.live', 'events.nearby', 'events.rings']);

export function prefersArrow(accept: string | null): boolean {
  if (!accept || !accept.includes('arrow')) return false;
  let arrow = 0;
  let other = 0;
  for (const part of accept.toLowerCase().split(',')) {
    const [type, ...params] = part.trim().split(';');
    const qParam = params.find((p) => p.trim().startsWith('q='));
    const q = qParam ? Number(qParam.trim().slice(2)) : 1;
    if (!(q >= 0)) continue;
    const t = type.trim();
    if (t === ARROW_STREAM) arrow = Math.max(arrow, q);
    else if (t === 'application/json' || t === 'application/geo+json' || t === '*/*' || t === 'application/*')
      other = Math.max(other, q);
  }
  return arrow > 0 && arrow >= other;
}

/** The handler's JSON body (an object, or the live index's bytes of it) as an Arrow IPC stream. */
export function arrowStreamOf(body: unknown): Buffer {
  const page = (Buffer.isBuffer(body) ? JSON.parse(body.toString('utf8')) : body) as EventPage;
  const bytes = tableToIPC(eventTable(page), 'stream');
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
