/**
 * One builder at a time per cache entry: a second `model build` of the same package (the README's two
 * pages run side by side in the tests; two terminals) waits for the first and copies what it stored, rather
 * than spending the same minutes of CPU. The lock is a folder (mkdir is atomic) holding its owner's pid and
 * host; one whose owner is gone is taken over (domain/stale-lock.ts). Two waiters taking over the same
 * stale lock at once may both build: the lock saves work, it is not what keeps an entry whole (entries.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processAlive } from '../../lib/process-alive.js';
import { lockIsStale, type LockOwner } from './domain/stale-lock.js';

const OWNER = 'owner.json';
const POLL_MS = 500;

export interface HeldLock {
  release(): void;
}

function ownerOf(lock: string): LockOwner | undefined {
  try {
    const o = JSON.parse(fs.readFileSync(path.join(lock, OWNER), 'utf8')) as Partial<LockOwner>;
    return typeof o.pid === 'number' && typeof o.host === 'string' ? { pid: o.pid, host: o.host } : undefined;
  } catch {
    return undefined;
  }
}

/** Makes the lock, or undefined when another process holds it. Errors other than "exists" propagate. */
function tryLock(lock: string): HeldLock | undefined {
  try {
    fs.mkdirSync(lock);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw err;
  }
  fs.writeFileSync(path.join(lock, OWNER), JSON.stringify({ pid: process.pid, host: os.hostname() }) + '\n');
  return { release: () => fs.rmSync(lock, { recursive: true, force: true }) };
}

/**
 * Takes the lock at `lock`, waiting while another live process holds it. `done()` is asked while waiting:
 * when it says the work is there (the other builder stored the entry), undefined is returned at once.
 */
export async function lockOrWait(
  lock: string,
  done: () => boolean,
  waiting: (owner: LockOwner | undefined) => void,
): Promise<HeldLock | undefined> {
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  let told = false;
  for (;;) {
    const held = tryLock(lock);
    if (held) return held;
    if (done()) return undefined;
    const owner = ownerOf(lock);
    const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (lockIsStale(owner, age, { host: os.hostname(), alive: processAlive })) {
      fs.rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!told) waiting(owner);
    told = true;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
