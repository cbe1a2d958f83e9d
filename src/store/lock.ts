/**
 * Who holds the store. DuckDB itself refuses a second read-write opener of a file (an OS lock), so the
 * file can never be corrupted by two writers; this sidecar (`<db>.lock`, JSON) only lets the refused
 * process name the holder in its error: which command, which pid, since when.
 */
import fs from 'node:fs';
import os from 'node:os';
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

/** A write that fails (a full disk) leaves no sidecar behind: an empty one would name no holder to anyone. */
export function writeLockHolder(dbPath: string, command: string): void {
  const holder: LockHolder = { pid: process.pid, command, host: os.hostname(), since: new Date().toISOString() };
  const file = lockPathOf(dbPath);
  try {
    fs.writeFileSync(file, JSON.stringify(holder) + '\n');
  } catch (err) {
    fs.rmSync(file, { force: true });
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
