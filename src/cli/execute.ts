/** Runs one handler for the CLI: open the store, parse, run, render, close. */
import type { Context, ProgressEvent } from '../context.js';
import { defaultConfig, defaults, type Config } from '../config/defaults.js';
import type { Caller, Handler, RawInput } from '../handlers/types.js';
import { Store } from '../store/db.js';
import { clockFrom } from './clock.js';
import type { CliIO } from './io.js';
import { renderHuman } from './render.js';
import { runViaServer } from '../http/remote.js';

export interface GlobalOptions {
  db?: string;
  json?: boolean;
  quiet?: boolean;
  debug?: boolean;
  account?: string;
}

export function dbPathOf(globals: GlobalOptions, io: CliIO): string {
  return globals.db ?? io.env.CATINTEL_DB ?? defaults.dbPath;
}

export async function execute(h: Handler, raw: RawInput, caller: Caller, globals: GlobalOptions, io: CliIO): Promise<number> {
  const clock = clockFrom(io.env);
  const input = h.parse(raw, caller); // bad input fails before the store is touched
  const watchSeconds = raw.watch === undefined ? undefined : Number(raw.watch);
  if (watchSeconds !== undefined && !(watchSeconds >= 1)) {
    io.stderr(`catintel: --watch "${raw.watch}" must be a number of seconds, at least 1 [invalid_parameter]\n`);
    return 2;
  }
  const dbPath = dbPathOf(globals, io);
  let db: Store;
  try {
    // Storeless handlers (token issue) get an empty in-memory store, so they work beside a running server.
    db = await Store.open(h.storeless ? ':memory:' : dbPath, { readOnly: !h.writes, holder: `catintel ${(h.cli?.command ?? [h.name]).join(' ')}` });
  } catch (err) {
    // While `catintel serve` holds the store, operator commands (keys) are sent to it (src/http/remote.ts).
    const body = await runViaServer(h, raw, caller, dbPath, err);
    if (body === undefined) throw err;
    io.stdout(globals.json ? JSON.stringify(body, null, 2) + '\n' : renderHuman(h.name, body));
    return 0;
  }
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  if (watchSeconds) process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    const ctx: Context = {
      config: configFrom(io.env, dbPath),
      db,
      clock,
      log: (level, message) => globals.debug && io.stderr(`${level}: ${message}\n`),
      progress: progressWriter(globals, io),
      signal: stop.signal,
    };
    for (;;) {
      const result = await h.run(ctx, input, caller);
      io.stdout(globals.json ? JSON.stringify(result.body, null, 2) + '\n' : renderHuman(h.name, result.body));
      if (!watchSeconds || stop.signal.aborted) return 0;
      await new Promise((r) => {
        const t = setTimeout(r, watchSeconds * 1000);
        stop.signal.addEventListener('abort', () => (clearTimeout(t), r(undefined)), { once: true });
      });
      if (stop.signal.aborted) return 0;
    }
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await db.close();
  }
}

/** Flags > CATINTEL_* env > defaults (DESIGN habit 5). */
export function configFrom(env: Record<string, string | undefined>, dbPath: string): Config {
  const n = (name: string) => (env[name] !== undefined && Number.isFinite(Number(env[name])) ? Number(env[name]) : undefined);
  return defaultConfig({
    dbPath,
    env,
    ...(n('CATINTEL_FETCH_TIMEOUT_MS') !== undefined && { fetchTimeoutMs: n('CATINTEL_FETCH_TIMEOUT_MS') }),
    ...(n('CATINTEL_FETCH_ATTEMPTS') !== undefined && { fetchAttempts: n('CATINTEL_FETCH_ATTEMPTS') }),
    ...(n('CATINTEL_FETCH_BACKOFF_MS') !== undefined && { fetchBackoffMs: n('CATINTEL_FETCH_BACKOFF_MS') }),
  });
}

/** Progress is NDJSON on stderr when not on a terminal (cron logs it); quiet on a terminal for now. */
function progressWriter(globals: GlobalOptions, io: CliIO): (e: ProgressEvent) => void {
  if (globals.quiet || io.isTTY) return () => {};
  return (e) => io.stderr(JSON.stringify({ progress: e.task, done: e.done, total: e.total ?? null, message: e.message }) + '\n');
}
