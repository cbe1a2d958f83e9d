/**
 * `<db>.serve.json`: written by `catintel serve` once it listens, removed when it stops. It tells a CLI
 * command on the same machine where the server that holds the store listens (its URL, and the Unix
 * socket of the local channel, src/channel/local-channel.ts) and the admin token of this run. Readable by
 * the file's owner only (0600): whoever can read it could already open the store file itself, so it
 * grants nothing new.
 */
import fs from 'node:fs';
import { clearStaleLockHolder } from '../store/lock.js';
import { removeSocket } from './local-channel.js';

export interface ServeInfo {
  pid: number;
  url: string;
  admin_token: string;
  started_at: string;
  /** The local channel's Unix socket: CLI commands on this store are sent there while the server runs. */
  socket?: string;
}

export function serveInfoPathOf(dbPath: string): string {
  return `${dbPath}.serve.json`;
}

export function writeServeInfo(dbPath: string, info: ServeInfo): void {
  const file = serveInfoPathOf(dbPath);
  fs.rmSync(file, { force: true });
  fs.writeFileSync(file, JSON.stringify(info, null, 2) + '\n', { mode: 0o600 });
}

export function readServeInfo(dbPath: string): ServeInfo | null {
  try {
    const info = JSON.parse(fs.readFileSync(serveInfoPathOf(dbPath), 'utf8')) as ServeInfo;
    return typeof info.url === 'string' && typeof info.admin_token === 'string' && Number.isInteger(info.pid)
      ? info
      : null;
  } catch {
    return null;
  }
}

export function clearServeInfo(dbPath: string): void {
  const info = readServeInfo(dbPath);
  if (info && info.pid === process.pid) fs.rmSync(serveInfoPathOf(dbPath), { force: true });
}

/**
 * Called by whoever opened the store itself: then no server owns it, so a serve.json still there is a
 * killed run's (with that run's admin token); it goes, with its socket. So does the `<db>.lock` sidecar
 * of a killed writer (a read-only open leaves it in place otherwise): its pid is gone from this host.
 */
export function clearStaleServeInfo(dbPath: string): void {
  clearStaleLockHolder(dbPath);
  const info = readServeInfo(dbPath);
  if (!info || info.pid === process.pid) return;
  fs.rmSync(serveInfoPathOf(dbPath), { force: true });
  if (info.socket) removeSocket(info.socket);
}
