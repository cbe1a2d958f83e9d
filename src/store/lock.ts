/**
 * Who holds the store. DuckDB itself refuses a second read-write opener of a file (an OS lock), so the
 * file can never be corrupted by two writers; this sidecar (`<db>.lock`, JSON) only lets the refused
 * process name the holder in its error: which command, which pid, since when.
 */
import fs from 'node:fs';
import os from 'node:os';

export interface LockHolder {
  pid: number;
  command: string;
  host: string;
  since: string;
}

export function lockPathOf(dbPath: string): string {
  return `${dbPath}.lock`;
}

export function writeLockHolder(dbPath: string, command: string): void {
  const holder: LockHolder = { pid: process.pid, command, host: os.hostname(), since: new Date().toISOString() };
  fs.writeFileSync(lockPathOf(dbPath), JSON.stringify(holder) + '\n');
}

export function readLockHolder(dbPath: string): LockHolder | null {
  try {
    return JSON.parse(fs.readFileSync(lockPathOf(dbPath), 'utf8')) as LockHolder;
  } catch {
    return null;
  }
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
