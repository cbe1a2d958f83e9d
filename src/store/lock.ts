/**
 * Who holds the store. DuckDB itself refuses a second read-write opener of a file (an OS lock), so the
 * file can never be corrupted by two writers; this sidecar (`<db>.lock`, JSON) only lets the refused
 * process name the holder in its error: which command, which pid, since when.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from '../lib/process-alive.js';
import { diskFull } from './faults.js';

export interface LockHolder {
  pid: number;
  command: string;
  host: string;
  since: string;
}

export function lockPathOf(dbPath: string): string {
  return `${dbPath}.lock`;
}

/** Where a writer prepares its sidecar before renaming it into place: named by its pid, so a killed one's is known. */
function draftPathOf(dbPath: string, pid: number): string {
  return `${lockPathOf(dbPath)}.${pid}.tmp`;
}

/**
 * Written whole or not at all (a draft renamed into place): a writer killed mid-write once left an empty
 * sidecar that named no holder and that nobody could tell was stale. A write that fails (a full disk)
 * leaves nothing behind.
 */
export function writeLockHolder(dbPath: string, command: string): void {
  const holder: LockHolder = { pid: process.pid, command, host: os.hostname(), since: new Date().toISOString() };
  const file = lockPathOf(dbPath);
  const draft = draftPathOf(dbPath, process.pid);
  try {
    fs.writeFileSync(draft, JSON.stringify(holder) + '\n');
    fs.renameSync(draft, file);
  } catch (err) {
    fs.rmSync(draft, { force: true });
    if ((err as NodeJS.ErrnoException).code === 'ENOSPC') throw diskFull(file, err);
    throw err;
  }
}

export function readLockHolder(dbPath: string): LockHolder | null {
  try {
    return JSON.parse(fs.readFileSync(lockPathOf(dbPath), 'utf8')) as LockHolder;
  } catch {
    return null;
  }
}

/**
 * The sidecar of a writer killed on this host (its pid is gone), and any draft a killed writer left, go.
 * A sidecar that does not parse is a killed writer's too: since sidecars are renamed into place whole,
 * no live writer's ever reads torn.
 */
export function clearStaleLockHolder(dbPath: string): void {
  const file = lockPathOf(dbPath);
  const holder = readLockHolder(dbPath);
  const stale = holder
    ? holder.pid !== process.pid && holder.host === os.hostname() && !processAlive(holder.pid)
    : fs.existsSync(file);
  if (stale) fs.rmSync(file, { force: true });
  for (const pid of draftPids(dbPath)) if (!processAlive(pid)) fs.rmSync(draftPathOf(dbPath, pid), { force: true });
}

function draftPids(dbPath: string): number[] {
  const prefix = `${path.basename(lockPathOf(dbPath))}.`;
  let names: string[];
  try {
    names = fs.readdirSync(path.dirname(dbPath));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(prefix) && n.endsWith('.tmp'))
    .map((n) => Number(n.slice(prefix.length, -'.tmp'.length)))
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

export function clearLockHolder(dbPath: string): void {
  const holder = readLockHolder(dbPath);
  if (holder && holder.pid === process.pid) fs.rmSync(lockPathOf(dbPath), { force: true });
}

/** "catintel serve (pid 4406 on host, since 2026-11-21T06:00:00Z)", or what DuckDB told us. */
export function describeHolder(dbPath: string, duckdbMessage: string): string {
  const pidInMessage = /PID (\d+)/.exec(duckdbMessage)?.[1];
  const holder = readLockHolder(dbPath);
  if (holder && (!pidInMessage || String(holder.pid) === pidInMessage)) {
    return `\`${holder.command}\` (pid ${holder.pid} on ${holder.host}, since ${holder.since})`;
  }
  return pidInMessage ? `another process (pid ${pidInMessage})` : 'another process';
}
