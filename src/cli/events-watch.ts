/**
 * `catintel events watch [--json]`: prints GET /events/stream of the server that owns the store, as it
 * happens (docs/stream.md). It needs that server: changes are seen where the store is written, and a
 * watcher that held the store (or opened it every few seconds) would lock cron's ingest out (exit 4).
 * When the stream drops (the server restarts) it reconnects with its Last-Event-ID, so nothing is lost
 * that the backlog still holds; SIGINT or SIGTERM ends it with exit 0.
 */
import type { Command } from 'commander';
import { CatintelError } from '../errors.js';
import { parseStreamFilter } from '../handlers/events-stream.js';
import { escapeControls } from '../lib/control-chars.js';
import { processAlive } from '../lib/process-alive.js';
import { readServeInfo } from '../channel/serve-info.js';
import { readSse, SseParser, type SseEvent } from '../stream/sse-client.js';
import { streamDefaults } from '../stream/limits.js';
import { dbPathOf, type GlobalOptions } from './execute.js';
import type { CliIO } from './io.js';
import { reportError } from './report-error.js';

interface WatchOptions {
  eventType?: string;
  status?: string;
  bbox?: string;
  since?: string;
}

export function addEventsWatchCommand(program: Command, io: CliIO, setExit: (code: number) => void): void {
  const events = program.commands.find((c) => c.name() === 'events') ?? program.command('events');
  events
    .command('watch')
    .description('Print live event changes as they happen (the /events/stream of the running `catintel serve`)')
    .option('--event-type <types>', 'comma list of event types')
    .option('--status <statuses>', 'active, monitoring or both (default both)')
    .option('--bbox <box>', 'minLng,minLat,maxLng,maxLat')
    .option('--since <time>', 'only events updated at or after this ISO 8601 time')
    .addHelpText(
      'after',
      [
        '',
        'Needs `catintel serve` running on the same store. One line per change; --json prints NDJSON, one message a line.',
        '',
        'Examples:',
        '  $ catintel events watch',
        '  $ catintel events watch --event-type earthquake,hurricane --json | jq .type',
        '',
      ].join('\n'),
    )
    .action(async (opts: WatchOptions, cmd: Command) => {
      const globals = cmd.optsWithGlobals() as GlobalOptions;
      try {
        setExit(await watch(opts, globals, io));
      } catch (err) {
        setExit(reportError(err, io, globals));
      }
    });
}

function queryOf(opts: WatchOptions): string {
  const raw = { event_type: opts.eventType, status: opts.status, bbox: opts.bbox, since: opts.since };
  parseStreamFilter(raw); // bad filters are exit 2 here, before any server is asked
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

async function watch(opts: WatchOptions, globals: GlobalOptions, io: CliIO): Promise<number> {
  const query = queryOf(opts);
  const dbPath = dbPathOf(globals, io);
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  const parser = new SseParser();
  let connectedOnce = false;
  try {
    while (!stop.signal.aborted) {
      const info = readServeInfo(dbPath);
      if (!info || !processAlive(info.pid)) {
        if (!connectedOnce) {
          throw new CatintelError(
            'unavailable',
            `events watch needs \`catintel serve\` running on ${dbPath}, where changes are seen as they happen; start one (catintel --db ${dbPath} serve), or poll with \`catintel events live --since <time>\``,
          );
        }
        await sleep(parser.retryMs ?? streamDefaults.retryMs, stop.signal); // the server is restarting
        continue;
      }
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (parser.lastEventId) headers['last-event-id'] = parser.lastEventId;
      if (io.env.CATINTEL_TOKEN) headers.authorization = `Bearer ${io.env.CATINTEL_TOKEN}`;
      try {
        const res = await fetch(`${info.url}/api/v1/events/stream${query}`, { headers, signal: stop.signal });
        if (!res.ok || !res.body) {
          const problem = (await res.json().catch(() => ({}))) as { detail?: string; code?: string };
          throw new CatintelError(
            res.status === 400 ? 'invalid_parameter' : 'unavailable',
            problem.detail ?? `the server answered ${res.status}`,
          );
        }
        connectedOnce = true;
        for await (const m of readSse(res.body, parser)) print(m, globals, io);
      } catch (err) {
        if (stop.signal.aborted) break;
        if (err instanceof CatintelError && err.code === 'invalid_parameter') throw err;
        if (!connectedOnce)
          throw err instanceof CatintelError
            ? err
            : new CatintelError('unavailable', `cannot reach the server at ${info.url} (${(err as Error).message})`);
      }
      if (!stop.signal.aborted && !globals.quiet) io.stderr('catintel: the event stream closed; reconnecting\n');
      await sleep(parser.retryMs ?? streamDefaults.retryMs, stop.signal);
    }
    return 0;
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
  }
}

/** The members of a stream event's data that print() reads (docs/stream.md); the rest is passed through. */
interface StreamData {
  [member: string]: unknown;
  event?: { properties?: { event_type: unknown; status: unknown; title: unknown; slug: unknown } };
  slug?: unknown;
  rings?: unknown[];
  reason?: unknown;
  id?: unknown;
}

function print(m: SseEvent, globals: GlobalOptions, io: CliIO): void {
  let data: StreamData;
  try {
    data = JSON.parse(m.data) as StreamData;
  } catch {
    data = { data: m.data };
  }
  if (globals.json) {
    io.stdout(JSON.stringify({ type: m.event, ...data }) + '\n');
    return;
  }
  // Titles and slugs come from feeds: shown with their control characters escaped (src/lib/control-chars.ts).
  const out = (line: string) => io.stdout(escapeControls(line) + '\n');
  const p = data.event?.properties;
  if (p)
    out(
      `${m.event.padEnd(15)} ${String(p.event_type).padEnd(12)} ${String(p.status).padEnd(10)} ${p.title}  (${p.slug})`,
    );
  else if (m.event === 'rings.changed')
    out(`${m.event.padEnd(15)} ${data.slug}: ${(data.rings as unknown[]).length} rings`);
  else if (m.event === 'reset') out(`reset           ${data.reason}; the current live events follow`);
  else if (m.event === 'stream.open' && !globals.quiet)
    io.stderr(`watching (up to date at ${escapeControls(String(data.id))}); Ctrl-C to stop\n`);
  else if (m.event !== 'stream.open') out(`${m.event.padEnd(15)} ${m.data}`);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
}
