/**
 * The local channel: how a CLI command reaches the `catintel serve` that owns its store. DuckDB lets one
 * process open a file read-write and refuses everyone else, readers included, so while the server runs
 * it is the only process that can touch the store. It listens on a Unix socket beside the store
 * (`<db>.serve.sock`, mode 0600, so only the store's owner can connect) and runs any CLI handler of the
 * registry on its own store: the CLI sends the handler's name and its raw input, the server parses and
 * runs it exactly as the standalone CLI would, and streams progress back. Each request also carries the
 * run's admin token from `<db>.serve.json` (0600 too), so a socket whose mode was loosened still admits
 * no one who cannot read the store's files. The CLI side is src/channel/remote.ts.
 * The wire format is in src/channel/channel-wire.ts.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Context, Logger, ProgressEvent } from '../context.js';
import { CatintelError } from '../errors.js';
import type { Caller, Handler } from '../handlers/types.js';
import { errorMessage, parseRequest, type ChannelMessage, type ChannelRequest } from './channel-wire.js';

/** What one job runs with; serve.ts builds the Context from it (its store, the caller's clock and env). */
export interface JobSpec {
  request: ChannelRequest;
  progress: (e: ProgressEvent) => void;
  log: Logger;
  signal: AbortSignal;
}

export interface ChannelOptions {
  socketPath: string;
  token: string;
  handlers: Handler[];
  contextFor(job: JobSpec): Context;
  /** Notes the server adds to a job's answer (which clock it ran on); the CLI prints them as hints. */
  notesFor?(request: ChannelRequest): string[];
  /**
   * Called after every job of a handler that writes (even a failed one): cached answers may be stale. The
   * job is answered once it resolves, so the caller's next read sees its write.
   */
  afterWrite(h: Handler): Promise<void>;
  /** The server's own log: one line per job. */
  log: Logger;
}

export interface LocalChannel {
  socketPath: string;
  /** Stops listening, cancels running jobs and waits for them to end. */
  close(): Promise<void>;
}

/** Room for a request line (raw CLI input is small; a runaway client is cut off). */
const MAX_REQUEST_BYTES = 1 << 20;
const REQUEST_DEADLINE_MS = 10_000;
/** sun_path holds 108 bytes on Linux and 104 on macOS, the terminating NUL included. */
const MAX_SOCKET_PATH_BYTES = 103;

/**
 * `<db>.serve.sock`; when that path is too long for a Unix socket, one in a new owner-only directory under
 * the temp directory (a fresh name each run, so no one else can have put a socket there first). Either way
 * serve.json records it.
 */
export function socketPathFor(dbPath: string): string {
  const beside = `${path.resolve(dbPath)}.serve.sock`;
  if (Buffer.byteLength(beside) <= MAX_SOCKET_PATH_BYTES) return beside;
  return path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-serve-')), 'serve.sock');
}

/** Removes a socket a killed server left (and its private directory, for one under the temp directory). */
export function removeSocket(socketPath: string): void {
  try {
    if (!fs.lstatSync(socketPath).isSocket()) return; // not ours to remove
  } catch {
    // already gone; its directory may remain
  }
  fs.rmSync(socketPath, { force: true });
  const dir = path.dirname(socketPath);
  if (path.dirname(dir) === os.tmpdir() && path.basename(dir).startsWith('catintel-serve-'))
    fs.rmSync(dir, { recursive: true, force: true });
}

export async function openLocalChannel(o: ChannelOptions): Promise<LocalChannel> {
  removeStaleSocket(o.socketPath);
  const jobs = new Set<{ abort: AbortController; done: Promise<void> }>();
  let writes: Promise<unknown> = Promise.resolve(); // one writing job at a time, like one writer per store
  const byName = new Map(o.handlers.filter((h) => h.cli && !h.storeless).map((h) => [h.name, h]));

  const server = net.createServer((socket) => {
    const abort = new AbortController();
    const done = serveConnection(
      socket,
      abort,
      async (request, send) => {
        const h = byName.get(request.handler);
        if (!h)
          throw new CatintelError(
            'invalid_request',
            `this server runs no command named "${request.handler}"; is the CLI of another catintel version?`,
          );
        const caller: Caller = { tier: 'enterprise', account: request.account };
        const started = Date.now();
        // A write's caller is answered once the server's answers include it (the live index swapped); the
        // next writer's turn starts as soon as the write itself is done.
        let included: Promise<void> | undefined;
        const run = async () => {
          // A writing command whose caller gave up (Ctrl-C) while it waited for its turn never starts.
          if (abort.signal.aborted)
            throw new CatintelError('unavailable', 'the command was cancelled before it started');
          const ctx = o.contextFor({
            request,
            progress: (e) => send({ progress: e }),
            log: (level, message, fields) =>
              request.debug && send({ log: { level, message, ...(fields && { fields }) } }),
            signal: abort.signal,
          });
          try {
            const input = h.parse(request.raw, caller);
            const result = await h.run(ctx, input, caller);
            const notes = [...(result.notes ?? []), ...(o.notesFor?.(request) ?? [])];
            return { body: result.body, ...(notes.length && { notes }) };
          } finally {
            if (h.writes) included = o.afterWrite(h);
            o.log('info', 'local command', { handler: h.name, account: caller.account, ms: Date.now() - started });
          }
        };
        if (!h.writes) return run();
        const turn = writes.then(run, run);
        writes = turn.catch(() => undefined);
        try {
          return await turn;
        } finally {
          await included;
        }
      },
      o,
    );
    const job = { abort, done };
    jobs.add(job);
    void done.finally(() => jobs.delete(job));
  });

  // Owner-only from the first instant: the umask covers the bind itself (listen binds synchronously), the
  // chmod covers file systems that ignore it.
  const umask = process.umask(0o177);
  try {
    server.listen(o.socketPath);
  } finally {
    process.umask(umask);
  }
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  fs.chmodSync(o.socketPath, 0o600);

  return {
    socketPath: o.socketPath,
    async close() {
      const closed = new Promise((r) => server.close(r));
      for (const j of jobs) j.abort.abort();
      await Promise.all([...jobs].map((j) => j.done));
      await closed;
      removeSocket(o.socketPath);
    },
  };
}

/** The server holds the store's lock, so a socket left at its path is a killed run's: remove it. Anything else there is refused. */
function removeStaleSocket(socketPath: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(socketPath);
  } catch {
    return;
  }
  if (!stat.isSocket())
    throw new CatintelError(
      'unavailable',
      `${socketPath} exists and is not a socket; remove it so \`catintel serve\` can listen there for local commands`,
    );
  fs.rmSync(socketPath, { force: true });
}

type Send = (m: ChannelMessage) => void;

function serveConnection(
  socket: net.Socket,
  abort: AbortController,
  handle: (request: ChannelRequest, send: Send) => Promise<{ body: unknown; notes?: string[] }>,
  o: Pick<ChannelOptions, 'token' | 'log'>,
): Promise<void> {
  return new Promise<void>((resolve) => {
    let buffered = '';
    let started = false;
    const send: Send = (m) => {
      if (!socket.destroyed) socket.write(JSON.stringify(m) + '\n');
    };
    const finish = (m: ChannelMessage) => {
      send(m);
      socket.end();
      resolve();
    };
    const deadline = setTimeout(() => !started && (socket.destroy(), resolve()), REQUEST_DEADLINE_MS);
    socket.setEncoding('utf8');
    socket.on('error', () => undefined); // a client that goes away mid-answer is not the server's failure
    socket.on('close', () => {
      clearTimeout(deadline);
      abort.abort(); // the CLI was interrupted: the job stops at its next check
      if (!started) resolve();
    });
    socket.on('data', (chunk: string) => {
      if (started) return;
      buffered += chunk;
      const end = buffered.indexOf('\n');
      if (end < 0) {
        if (buffered.length > MAX_REQUEST_BYTES) {
          started = true;
          finish(
            errorMessage(new CatintelError('payload_too_large', 'the request to the local channel is over 1 MiB')),
          );
        }
        return;
      }
      started = true;
      clearTimeout(deadline);
      let request: ChannelRequest;
      try {
        request = parseRequest(buffered.slice(0, end), o.token);
      } catch (err) {
        return finish(errorMessage(err));
      }
      handle(request, send).then(
        (result) => finish({ result }),
        (err) => {
          if (!(err instanceof CatintelError))
            o.log('error', 'local command failed', {
              handler: request.handler,
              error: (err as Error)?.stack ?? String(err),
            });
          finish(errorMessage(err));
        },
      );
    });
  });
}
