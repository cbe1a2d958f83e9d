/**
 * Runs one handler for the CLI: parse, open the store, run, render, close. While `catintel serve` owns the
 * store, the same handler runs in that server instead (src/channel/remote.ts), with the same output.
 */
import type { Context, ProgressEvent } from '../context.js';
import { defaultConfig, defaults, type Config } from '../config/defaults.js';
import { CatintelError } from '../errors.js';
import type { Caller, Handler, HandlerResult, RawInput } from '../handlers/types.js';
import type { Store } from '../store/db.js';
import { assertStorePath } from '../store/store-path.js';
import { clockFrom } from './clock.js';
import type { CliIO } from './io.js';
import { escapeControls } from '../lib/control-chars.js';
import { ServerNotListening, serverFor, servingServerOf, type RemoteRun } from '../channel/remote.js';
import { clearStaleServeInfo } from '../channel/serve-info.js';
import { processAlive } from '../lib/process-alive.js';
import { reportWatchFailure, retryDelaySeconds, worthRetrying } from './watch.js';
import { eventFileRequest, tableFileRequest } from '../columnar/file-request.js';

export interface GlobalOptions {
  db?: string;
  /** `--store`: a DuckDB file as --db, or a cluster store's address (src/store/cluster/store-url.ts). */
  store?: string;
  json?: boolean;
  quiet?: boolean;
  debug?: boolean;
  account?: string;
  /** `--as-of <ISO 8601>`: "now" for this run, like CATINTEL_NOW (src/cli/clock.ts). */
  asOf?: string;
}

export function dbPathOf(globals: GlobalOptions, io: CliIO): string {
  if (globals.db !== undefined && globals.store !== undefined && globals.db !== globals.store) {
    throw new CatintelError('invalid_parameter', 'give the store once, as --db FILE or --store ADDRESS, not both', {
      errors: [{ field: 'store', message: 'given together with --db' }],
    });
  }
  const path = globals.store ?? globals.db ?? io.env.CATINTEL_DB ?? defaults.dbPath;
  // Store.open takes ':memory:' from our own code (tests); from a user it would lose everything.
  if (path === ':memory:') assertStorePath(path);
  return path;
}

export async function execute(
  h: Handler,
  raw: RawInput,
  caller: Caller,
  globals: GlobalOptions,
  io: CliIO,
): Promise<number> {
  const clock = clockFrom(io.env, globals.asOf);
  const input = h.parse(raw, caller); // bad input fails before the store is touched
  // An event page written as a file (--format arrow|geoparquet --out), or a table answer written as an Arrow
  // file (portfolio exposure). The writers load apache-arrow, so only a run that writes a file loads them.
  const fileRequest = h.cli?.eventFile ? eventFileRequest(raw) : undefined;
  const eventFiles = fileRequest ? await import('../columnar/event-file.js') : undefined;
  const tableRequest = h.cli?.tableFile ? tableFileRequest(raw) : undefined;
  const tableFiles = tableRequest ? await import('../columnar/table-file.js') : undefined;
  const watchSeconds = raw.watch === undefined ? undefined : Number(raw.watch);
  if (watchSeconds !== undefined && !(watchSeconds >= 1)) {
    io.stderr(`catintel: --watch "${raw.watch}" must be a number of seconds, at least 1 [invalid_parameter]\n`);
    return 2;
  }
  const dbPath = dbPathOf(globals, io);
  const log = (level: string, message: string) => globals.debug && io.stderr(`${level}: ${message}\n`);
  // Opening the store is part of the command: a failure here ends it, --watch or not.
  let runner: Runner | undefined = await runnerFor(h, raw, caller, globals, io, dbPath, clock, log);
  const stop = new AbortController();
  const progress = progressWriter(globals, io);
  const onSignal = () => stop.abort();
  if (watchSeconds) process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    for (let failures = 0; ;) {
      let waitSeconds = watchSeconds ?? 0;
      try {
        runner ??= await runnerFor(h, raw, caller, globals, io, dbPath, clock, log);
        const result = await runner.run(input, progress, stop.signal);
        await progress.flush();
        if (eventFiles && fileRequest) {
          const { extensionDirectory } = await import('../store/extensions.js');
          const written = await eventFiles.writeEventFile(result.body, fileRequest, extensionDirectory(io.env));
          io.stdout(
            globals.json
              ? JSON.stringify(written, null, 2) + '\n'
              : `${written.rows} events written to ${written.file} (${written.format})\n`,
          );
        } else if (tableFiles && tableRequest) {
          const written = await tableFiles.writeTableFile(h.name, result.body, tableRequest);
          io.stdout(
            globals.json
              ? JSON.stringify(written, null, 2) + '\n'
              : `${written.rows} rows written to ${written.file} (${written.format})\n`,
          );
        } else if (globals.json) io.stdout(JSON.stringify(result.body, null, 2) + '\n');
        else {
          // The text renderers of every command load with the first answer a person reads, not with --json.
          const { renderHuman } = await import('./render.js');
          io.stdout(renderHuman(h.name, result.body));
        }
        // Hints go to stderr like git's, so stdout stays the answer; machine output (--json) and --quiet get none.
        if (!globals.json && !globals.quiet)
          for (const note of result.notes ?? []) io.stderr(`hint: ${escapeControls(note)}\n`);
        if (!watchSeconds) return h.cli?.exitCode?.(result.body, input) ?? 0;
        if (stop.signal.aborted) return 0; // a signal ends a watch with 0, whatever its last round found
        failures = 0;
      } catch (err) {
        // A watch survives what a later round may not meet again, and ends only on a signal (src/cli/watch.ts).
        await progress.flush();
        if (watchSeconds && stop.signal.aborted) return 0;
        if (!watchSeconds || !worthRetrying(err)) throw err;
        failures++;
        waitSeconds = retryDelaySeconds(failures, watchSeconds);
        reportWatchFailure(err, failures, waitSeconds, io, globals.json);
        if (globals.debug && err instanceof Error) io.stderr(`${err.stack}\n`);
        // The server that ran the rounds may have stopped: the next round looks for the store's holder again.
        if (runner?.remote) await runner.close().finally(() => (runner = undefined));
      }
      await new Promise((r) => {
        const t = setTimeout(r, waitSeconds * 1000);
        stop.signal.addEventListener('abort', () => (clearTimeout(t), r(undefined)), { once: true });
      });
      if (stop.signal.aborted) return 0;
    }
  } finally {
    await progress.flush();
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await runner?.close();
  }
}

/** Where the handler runs: on the store in this process, or (`--watch`: each round) in the server that owns it. */
interface Runner {
  run(input: unknown, progress: ProgressSink, signal: AbortSignal): Promise<Pick<HandlerResult, 'body' | 'notes'>>;
  close(): Promise<void>;
  /** Runs in `catintel serve`, which may stop between rounds of a watch. */
  remote?: boolean;
}

async function runnerFor(
  h: Handler,
  raw: RawInput,
  caller: Caller,
  globals: GlobalOptions,
  io: CliIO,
  dbPath: string,
  clock: () => Date,
  log: (level: string, message: string) => unknown,
): Promise<Runner> {
  const local = (db: Store): Runner => ({
    run: (input, progress, signal) => {
      const ctx: Context = {
        config: configFrom(io.env, dbPath),
        db,
        clock,
        log: (level, message) => log(level, message),
        progress: (e) => progress.emit(e),
        signal,
      };
      return h.run(ctx, input, caller);
    },
    close: () => (h.storeless ? Promise.resolve() : db.close()),
  });
  // Storeless handlers (token issue, score point, bulk score, data build) never open a store, so nothing
  // they do can meet its lock.
  if (h.storeless) return local(NO_STORE);
  const remote = (server: RemoteRun): Runner => ({
    remote: true,
    run: async (input, progress, signal) => {
      try {
        return await server.run({
          h,
          raw,
          caller,
          asOf: globals.asOf,
          env: io.env,
          debug: globals.debug,
          progress: (e) => progress.emit(e),
          log,
          signal,
        });
      } catch (refused) {
        // A server that is stopping refuses connections a moment before it lets go of the store: once it
        // has, the command runs on the store here, as it would have had the server not been there.
        if (!(refused instanceof ServerNotListening)) throw refused;
        const db = await openOnceReleased(dbPath, server.pid, h, io.env);
        if (!db) throw refused;
        const here = local(db);
        try {
          return await here.run(input, progress, signal);
        } finally {
          await here.close();
        }
      }
    },
    close: async () => {},
  });
  // Beside a running `catintel serve` the store is the server's: the command goes straight there rather than
  // loading DuckDB (a third to a half of a short command's time) only to be refused the lock.
  const serving = servingServerOf(dbPath);
  if (serving) return remote(serving);
  try {
    // DuckDB loads with the first command that opens a store, not with every command.
    const { Store } = await import('../store/db.js');
    const { extensionDirectory } = await import('../store/extensions.js');
    const db = await Store.open(dbPath, {
      readOnly: !h.writes,
      holder: `catintel ${(h.cli?.command ?? [h.name]).join(' ')}`,
      extensionDirectory: extensionDirectory(io.env),
    });
    clearStaleServeInfo(dbPath); // we hold the store, so no server does
    return local(db);
  } catch (err) {
    // While `catintel serve` owns the store, the command runs there (src/channel/remote.ts); anyone else holding it means exit 4.
    const server = await serverFor(dbPath, err);
    if (!server) throw err;
    return remote(server);
  }
}

/** How long a command waits for a stopping server to close the store before it reports the server's refusal. */
const RELEASE_WAIT_MS = 15_000;

/** The store, opened once the server `pid` has let go of it; undefined if it still holds it after RELEASE_WAIT_MS. */
async function openOnceReleased(
  dbPath: string,
  pid: number,
  h: Handler,
  env: Record<string, string | undefined>,
): Promise<Store | undefined> {
  const { Store } = await import('../store/db.js');
  const { extensionDirectory } = await import('../store/extensions.js');
  const deadline = Date.now() + RELEASE_WAIT_MS;
  for (;;) {
    const serverAlive = processAlive(pid); // asked first: a store still locked after the server went is someone else's
    try {
      return await Store.open(dbPath, {
        readOnly: !h.writes,
        holder: `catintel ${(h.cli?.command ?? [h.name]).join(' ')}`,
        extensionDirectory: extensionDirectory(env),
      });
    } catch (err) {
      if (!(err instanceof CatintelError && err.code === 'store_locked')) throw err;
      if (!serverAlive || Date.now() > deadline) return undefined;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** The store a storeless handler gets: any use is a bug in that handler, reported as one. */
const NO_STORE = new Proxy({} as Store, {
  get(_, property) {
    throw new CatintelError(
      'internal_error',
      `a storeless command used the store (${String(property)}); declare it without storeless: true`,
    );
  },
});

/** Flags > CATINTEL_* env > defaults (DESIGN habit 5). */
export function configFrom(env: Record<string, string | undefined>, dbPath: string): Config {
  const n = (name: string) =>
    env[name] !== undefined && Number.isFinite(Number(env[name])) ? Number(env[name]) : undefined;
  return defaultConfig({
    dbPath,
    env,
    ...(n('CATINTEL_FETCH_TIMEOUT_MS') !== undefined && { fetchTimeoutMs: n('CATINTEL_FETCH_TIMEOUT_MS') }),
    ...(n('CATINTEL_FETCH_ATTEMPTS') !== undefined && { fetchAttempts: n('CATINTEL_FETCH_ATTEMPTS') }),
    ...(n('CATINTEL_FETCH_BACKOFF_MS') !== undefined && { fetchBackoffMs: n('CATINTEL_FETCH_BACKOFF_MS') }),
  });
}

/** Where progress events go; `flush` ends a terminal view before the command prints its result. */
export interface ProgressSink {
  emit(e: ProgressEvent): void;
  flush(): Promise<void>;
}

/**
 * Progress (docs/architecture.md#progress-is-an-event-stream): an ink bar on stderr when stderr is a terminal and the output
 * is for a person; NDJSON lines on stderr otherwise (cron logs them) and with --json (docs/contract.md#cli);
 * nothing with --quiet. Ink loads on the first event only (src/cli/progress-view.tsx).
 */
export function progressWriter(
  globals: GlobalOptions,
  io: CliIO,
  terminal: NodeJS.WriteStream | undefined = ttyStderr(io),
): ProgressSink {
  if (globals.quiet) return { emit: () => {}, flush: async () => {} };
  if (terminal && !globals.json) return inkProgress(terminal);
  return {
    emit: (e) =>
      io.stderr(
        JSON.stringify({
          progress: e.task,
          done: e.done,
          total: e.total ?? null,
          ...(e.unit && { unit: e.unit }),
          message: e.message,
        }) + '\n',
      ),
    flush: async () => {},
  };
}

function ttyStderr(io: CliIO): NodeJS.WriteStream | undefined {
  return io.isTTY && process.stderr.isTTY ? process.stderr : undefined;
}

function inkProgress(stream: NodeJS.WriteStream): ProgressSink {
  type View = import('./progress-view.js').ProgressView;
  let module: Promise<typeof import('./progress-view.js') | null> | undefined;
  let view: View | undefined;
  let last: ProgressEvent | undefined;
  const startedMs = Date.now();
  return {
    emit(e) {
      last = e;
      if (view) return view.update(e);
      module ??= import('./progress-view.js').catch(() => null); // no bar is better than a failed command
      void module.then((m) => {
        if (m && last && !view) view = m.startProgressView(stream, startedMs);
        if (view && last) view.update(last);
      });
    },
    async flush() {
      if (module) await module;
      view?.stop();
      view = undefined;
      last = undefined;
    },
  };
}
