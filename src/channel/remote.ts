/**
 * The CLI's side of the local channel (src/channel/local-channel.ts). When the store is locked and
 * `<db>.serve.json` names a live `catintel serve`, the command is sent to that server over its owner-only
 * socket instead of failing with exit 4: the server parses and runs the same handler on its own store,
 * streams progress back, and answers with the handler's body, or with the error the standalone run would
 * have raised (same code, same message, so the same exit code).
 */
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ProgressEvent } from '../context.js';
import { CatintelError, httpStatusOf, type ErrorCode, type FieldProblem } from '../errors.js';
import type { Caller, Handler, RawInput } from '../handlers/types.js';
import { readLockHolder } from '../store/lock.js';
import type { ChannelMessage, ChannelRequest } from './channel-wire.js';
import { processAlive } from '../lib/process-alive.js';
import { readServeInfo, type ServeInfo } from './serve-info.js';

export interface RemoteRun {
  /** Where the server answers, for messages: "catintel serve (pid 4406)". */
  describe: string;
  pid: number;
  run(o: RemoteCall): Promise<{ body: unknown; notes?: string[] }>;
}

export interface RemoteCall {
  h: Handler;
  raw: RawInput;
  caller: Caller;
  asOf?: string;
  env: Record<string, string | undefined>;
  debug?: boolean;
  progress: (e: ProgressEvent) => void;
  log: (level: string, message: string) => void;
  signal?: AbortSignal;
}

/** A freshly started server takes the lock a moment before it writes serve.json: wait this long for it. */
const STARTUP_WAIT_MS = 5_000;
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The running server that owns `dbPath`, when the store refused us because of it; undefined otherwise
 * (another command holds the lock, or the holder is gone), and the caller reports the lock as before.
 */
export async function serverFor(dbPath: string, lockError: unknown): Promise<RemoteRun | undefined> {
  if (!(lockError instanceof CatintelError) || lockError.code !== 'store_locked') return undefined;
  const info = await liveServeInfo(dbPath);
  if (!info?.socket) return undefined;
  const socket = info.socket;
  return {
    describe: `\`catintel serve\` (pid ${info.pid})`,
    pid: info.pid,
    run: (call) => callServer(socket, info, dbPath, call),
  };
}

/**
 * The running server that holds `dbPath` by every sign short of asking the store: `<db>.serve.json` names a
 * live process with a socket, and the store's lock sidecar names that process as `catintel serve` on this
 * host. Asked before the store is opened, so a command beside a server never loads DuckDB only to be refused
 * the lock. A server that has stopped meanwhile (or a pid taken by another process since) refuses the
 * connection, and the command then opens the store itself (ServerNotListening), as it would have.
 */
export function servingServerOf(dbPath: string): RemoteRun | undefined {
  const info = readServeInfo(dbPath);
  if (!info?.socket || !processAlive(info.pid)) return undefined;
  const holder = readLockHolder(dbPath);
  if (holder?.command !== 'catintel serve' || holder.pid !== info.pid || holder.host !== os.hostname())
    return undefined;
  const socket = info.socket;
  return {
    describe: `\`catintel serve\` (pid ${info.pid})`,
    pid: info.pid,
    run: (call) => callServer(socket, info, dbPath, call),
  };
}

async function liveServeInfo(dbPath: string): Promise<ServeInfo | undefined> {
  const deadline = Date.now() + STARTUP_WAIT_MS;
  for (;;) {
    const info = readServeInfo(dbPath);
    if (info && processAlive(info.pid)) return info;
    const holder = readLockHolder(dbPath);
    const starting =
      holder?.command === 'catintel serve' && processAlive(holder.pid) && (!info || info.pid !== holder.pid);
    if (!starting || Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Option values that name local files, made absolute: the server does not share our working directory. */
function resolvePaths(h: Handler, raw: RawInput): { raw: RawInput; given: Map<string, string> } {
  const out: RawInput = { ...raw };
  const given = new Map<string, string>();
  for (const key of h.cli?.paths ?? []) {
    const v = raw[key];
    if (typeof v !== 'string' || v === '' || /^[a-z][a-z0-9+.-]*:\/\//i.test(v) || path.isAbsolute(v)) continue;
    out[key] = path.resolve(v);
    given.set(out[key] as string, v);
  }
  return { raw: out, given };
}

/** Answers name files as the caller gave them, exactly as the standalone run would have. */
function asGiven<T>(value: T, given: Map<string, string>): T {
  if (given.size === 0) return value;
  const fix = (s: string) => [...given].reduce((acc, [abs, rel]) => acc.split(abs).join(rel), s);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return fix(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/**
 * The server refused the connection itself (it stopped listening: it is shutting down, or just went): the
 * command never reached it, so running it elsewhere cannot run it twice.
 */
export class ServerNotListening extends CatintelError {}

function callServer(
  socketPath: string,
  info: ServeInfo,
  dbPath: string,
  call: RemoteCall,
): Promise<{ body: unknown; notes?: string[] }> {
  const { raw, given } = resolvePaths(call.h, call.raw);
  const env = Object.fromEntries(
    Object.entries(call.env).filter(
      (e): e is [string, string] => e[0].startsWith('CATINTEL_') && typeof e[1] === 'string',
    ),
  );
  const request: ChannelRequest = {
    token: info.admin_token,
    handler: call.h.name,
    raw,
    account: call.caller.account,
    db: dbPath,
    env,
    ...(call.asOf !== undefined && { as_of: call.asOf }),
    ...(call.debug && { debug: true }),
  };
  const unreachable = (why: string) =>
    new CatintelError(
      'unavailable',
      `the store is held by \`catintel serve\` (pid ${info.pid}), which did not take the command (${why}); try again, or stop the server`,
    );

  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let answered = false;
    let buffered = '';
    const settle = (fn: () => void) => {
      if (answered) return;
      answered = true;
      call.signal?.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () =>
      settle(
        () => (
          socket.destroy(),
          reject(new CatintelError('unavailable', 'interrupted; the server stops the command at its next step'))
        ),
      );
    call.signal?.addEventListener('abort', onAbort, { once: true });
    socket.setTimeout(CONNECT_TIMEOUT_MS, () =>
      settle(() => (socket.destroy(), reject(unreachable('no connection within 5 s')))),
    );
    socket.setEncoding('utf8');
    let connected = false;
    socket.on('connect', () => {
      connected = true;
      socket.setTimeout(0); // a long ingest may be quiet for a while
      socket.write(JSON.stringify(request) + '\n');
    });
    socket.on('error', (err: NodeJS.ErrnoException) =>
      settle(() =>
        reject(
          connected
            ? unreachable(err.code ?? err.message)
            : new ServerNotListening('unavailable', unreachable(err.code ?? err.message).message),
        ),
      ),
    );
    socket.on('close', () => settle(() => reject(unreachable('the connection closed before an answer'))));
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl);
        buffered = buffered.slice(nl + 1);
        const m = asGiven(JSON.parse(line) as ChannelMessage, given);
        if ('progress' in m) call.progress(m.progress);
        else if ('log' in m) call.log(m.log.level, m.log.message);
        else if ('result' in m) settle(() => (socket.end(), resolve(m.result)));
        else if ('error' in m) settle(() => (socket.end(), reject(errorOf(m.error))));
      }
    });
  });
}

function errorOf(e: { code: string; message: string; errors?: FieldProblem[] }): CatintelError {
  const code = (e.code in httpStatusOf ? e.code : 'internal_error') as ErrorCode;
  return new CatintelError(code, e.message, e.errors ? { errors: e.errors } : {});
}
