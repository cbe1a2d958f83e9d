/**
 * The running server of `catintel serve`, put together: the store opened under the server's write lock, the
 * context every request runs in, the in-memory live-event index, the HTTP app on its socket and the local
 * channel through which every other CLI command on the same store runs (src/channel/local-channel.ts). serve.ts
 * parses the command line, runs the ingest loop beside this and stops it all in order.
 */
import type { AuthConfig } from '../auth/config.js';
import type { Context, Logger } from '../context.js';
import { CatintelError } from '../errors.js';
import { HANDLERS } from '../handlers/registry.js';
import { storeChangeOf } from '../handlers/store-change.js';
import { httpDefaults, type RequestsPerMinute } from '../http/limits.js';
import { openLocalChannel, removeSocket, socketPathFor, type LocalChannel } from '../channel/local-channel.js';
import { readServeInfo, writeServeInfo } from '../channel/serve-info.js';
import type { RunningServer } from '../http/server.js';
import type { LiveEventIndex } from '../live-index/live-index.js';
import { Store } from '../store/db.js';
import { extensionDirectory } from '../store/extensions.js';
import type { StoreChange } from '../stream/store-change.js';
import { clockFrom, pinnedNowOf } from './clock.js';
import { configFrom } from './execute.js';
import type { CliIO } from './io.js';

export interface ServerSettings {
  dbPath: string;
  host: string;
  port: number;
  auth: AuthConfig;
  adminToken: string;
  corsOrigins: string[];
  rateLimit: RequestsPerMinute | 'off';
  trustProxy: string | undefined;
  /** Where the NDJSON access log lines go; absent: no access log. */
  accessLog: ((line: string) => void) | undefined;
  /** The pinned clock of the command line (--as-of), if any. */
  asOf: string | undefined;
  log: Logger;
}

export interface AssembledServer {
  ctx: Context;
  db: Store;
  server: RunningServer;
  liveIndex: LiveEventIndex;
  /** Absent for an in-memory store, which no other process can reach. */
  channel: LocalChannel | undefined;
  /** Aborted when the server stops: an ingest or a local command in progress stops at its next check. */
  stopping: AbortController;
  /**
   * The store changed: rebuild the live index, then refresh the caches, freshness and the event stream.
   * `change` says what the write may have touched; without it (the ingest loop's ingest and round), anything.
   */
  storeChanged(change?: StoreChange): Promise<void>;
}

export async function assembleServer(s: ServerSettings, io: CliIO): Promise<AssembledServer> {
  const { dbPath, host, port, log } = s;
  const db = await Store.open(dbPath, { holder: 'catintel serve', extensionDirectory: extensionDirectory(io.env) });
  const stopping = new AbortController();
  const ctx: Context = {
    config: configFrom(io.env, dbPath),
    db,
    clock: clockFrom(io.env, s.asOf),
    log,
    progress: () => {},
    signal: stopping.signal,
  };
  const serverPinnedNow = pinnedNowOf(io.env, s.asOf);
  const { startServer } = await import('../http/server.js'); // h3 loads only when serving
  const { ndjsonAccessLog } = await import('../http/access-log.js');
  // Events are answered from memory (src/live-index/); until the first build is in, from the store.
  const { LiveEventIndex } = await import('../live-index/live-index.js');
  const liveIndex = (ctx.liveIndex = new LiveEventIndex(db, ctx.clock, log));
  void liveIndex.invalidate();
  let server: RunningServer;
  try {
    server = await startServer({
      ctx,
      host,
      port,
      auth: s.auth,
      adminToken: s.adminToken,
      corsOrigins: s.corsOrigins,
      rateLimit: s.rateLimit,
      // Exact across replicas: a cluster store's servers count in one window in PostgreSQL.
      limiter: await db.sharedRateWindow(httpDefaults.rateWindowMs),
      trustProxy: s.trustProxy,
      accessLog: s.accessLog ? ndjsonAccessLog(s.accessLog) : undefined,
    });
  } catch (err) {
    await db.close();
    throw new CatintelError('unavailable', `cannot listen on ${host}:${port} (${(err as Error).message})`, {
      cause: err,
    });
  }
  // The store changed (an ingest here, or a command through the local channel). Readers keep the previous
  // live index until the new one is in (they never wait for the writer); the write is acknowledged only
  // after that, so its caller never reads anything older than its own write.
  const storeChanged = async (change?: StoreChange) => {
    await liveIndex.invalidate();
    // After the swap: an answer cached from the previous index meanwhile does not outlive it.
    await server.app.storeChanged(change); // cached answers, X-Data-Freshness and GET /events/stream follow it
  };
  // A cluster store's other processes (replicas, an ingest elsewhere) write to it directly and announce it
  // (src/store/cluster/change-notices.ts): each notice refreshes this replica as its own writes do.
  if (db.backend === 'cluster') await db.onChangeElsewhere(() => void storeChanged());
  let channel: LocalChannel | undefined;
  // The local channel hands CLI commands to the process holding a DuckDB file's lock; a cluster store has
  // no lock, and commands open it themselves.
  if (dbPath !== ':memory:' && db.backend === 'file') {
    // We hold the store's lock, so a serve.json already there is a killed run's: its socket goes too.
    const stale = readServeInfo(dbPath);
    if (stale?.socket) removeSocket(stale.socket);
    try {
      channel = await openLocalChannel({
        socketPath: socketPathFor(dbPath),
        token: s.adminToken,
        handlers: HANDLERS,
        // The server's store under the caller's name for it; the caller's CATINTEL_* settings, as in its own
        // process. The clock is the caller's when it pinned one (--as-of, CATINTEL_NOW); otherwise the
        // server's, so that `events live` beside `make run` (pinned) sees what the API serves.
        contextFor: ({ request, progress, log: jobLog, signal }) => ({
          config: configFrom(request.env, dbPath),
          db: storeNamed(db, request.db),
          clock: pinnedNowOf(request.env, request.as_of) ? clockFrom(request.env, request.as_of) : ctx.clock,
          log: jobLog,
          progress,
          signal: AbortSignal.any([signal, stopping.signal]),
        }),
        notesFor: (request) =>
          serverPinnedNow && !pinnedNowOf(request.env, request.as_of)
            ? [
                `clock: pinned at ${serverPinnedNow} by \`catintel serve\` (pid ${process.pid}); set CATINTEL_NOW or pass --as-of for another time`,
              ]
            : [],
        // Keys, triggers, portfolios: the live index holds none of them, only the caches and the stream follow.
        afterWrite: (h) => (h.keepsEvents ? server.app.storeChanged(storeChangeOf(h)) : storeChanged(storeChangeOf(h))),
        log,
      });
    } catch (err) {
      await server.stop();
      await db.close();
      throw new CatintelError(
        'unavailable',
        `cannot open the local channel for CLI commands (${(err as Error).message})`,
        { cause: err },
      );
    }
    writeServeInfo(dbPath, {
      pid: process.pid,
      url: server.url,
      admin_token: s.adminToken,
      started_at: new Date().toISOString(),
      socket: channel.socketPath,
    });
  }
  return { ctx, db, server, liveIndex, channel, stopping, storeChanged };
}

/** The store as the caller named it (`db info` prints the path it was given); everything else is the store itself. */
function storeNamed(store: Store, name: string): Store {
  if (name === store.path) return store;
  return new Proxy(store, {
    get(target, property) {
      if (property === 'path') return name;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
