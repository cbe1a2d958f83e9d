/**
 * Whether a build's lock on a cache entry was left by a process that will never release it. A live
 * builder holds its lock for as long as the build takes (a 10,000-year package: tens of minutes), so a
 * lock of this host is stale only when its process is gone; one of another host sharing the cache (a home
 * on a network disk) cannot be asked, and is taken over only after a day.
 */
export interface LockOwner {
  pid: number;
  host: string;
}

/** A lock whose owner is not written yet (made a moment ago, or by a process killed right then). */
export const UNOWNED_LOCK_GRACE_MS = 60_000;
export const FOREIGN_LOCK_MAX_AGE_MS = 24 * 3600_000;

export function lockIsStale(
  owner: LockOwner | undefined,
  ageMs: number,
  here: { host: string; alive: (pid: number) => boolean },
): boolean {
  if (!owner) return ageMs > UNOWNED_LOCK_GRACE_MS;
  if (owner.host === here.host) return !here.alive(owner.pid);
  return ageMs > FOREIGN_LOCK_MAX_AGE_MS;
}
