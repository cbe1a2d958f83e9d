import { describe, expect, it } from 'vitest';
import { packageCacheKey, type PackageCacheKeyParts } from './cache-key.js';
import { entriesToEvict } from './eviction.js';
import { FOREIGN_LOCK_MAX_AGE_MS, lockIsStale, UNOWNED_LOCK_GRACE_MS } from './stale-lock.js';

const parts: PackageCacheKeyParts = {
  model: 'hurricane',
  years: 100,
  seed: 1,
  code: 'c'.repeat(64),
  data: 'd'.repeat(64),
  runtime: 'node v20.20.2 linux-x64',
};

describe('the package cache key', () => {
  it('is the same for the same parts, and differs when any part does', () => {
    expect(packageCacheKey({ ...parts })).toBe(packageCacheKey(parts));
    expect(packageCacheKey(parts)).toMatch(/^[0-9a-f]{32}$/);
    const changed: Partial<PackageCacheKeyParts>[] = [
      { model: 'earthquake' },
      { years: 101 },
      { seed: 2 },
      { oedLocation: 'e'.repeat(64) },
      { code: 'C'.repeat(64) },
      { data: 'D'.repeat(64) },
      { runtime: 'node v22.0.0 linux-x64' },
    ];
    const keys = changed.map((c) => packageCacheKey({ ...parts, ...c }));
    expect(new Set([packageCacheKey(parts), ...keys]).size).toBe(changed.length + 1);
  });
});

describe('eviction', () => {
  it('keeps the most recently used entries of each model', () => {
    const entry = (name: string, model: string, usedAt: number) => ({ name, model, usedAt });
    expect(
      entriesToEvict(
        [
          entry('h1', 'hurricane', 1),
          entry('h2', 'hurricane', 2),
          entry('h3', 'hurricane', 3),
          entry('h4', 'hurricane', 4),
          entry('e1', 'earthquake', 1),
        ],
        3,
      ),
    ).toEqual(['h1']);
    expect(entriesToEvict([entry('h1', 'hurricane', 5), entry('h2', 'hurricane', 9)], 1)).toEqual(['h1']);
  });
});

describe('a stale build lock', () => {
  const here = { host: 'a', alive: (pid: number) => pid === 10 };
  it('of this host: when its process is gone, however young', () => {
    expect(lockIsStale({ pid: 10, host: 'a' }, 1e9, here)).toBe(false);
    expect(lockIsStale({ pid: 11, host: 'a' }, 0, here)).toBe(true);
  });
  it('of another host: after a day; without an owner: after the grace', () => {
    expect(lockIsStale({ pid: 11, host: 'b' }, FOREIGN_LOCK_MAX_AGE_MS - 1, here)).toBe(false);
    expect(lockIsStale({ pid: 11, host: 'b' }, FOREIGN_LOCK_MAX_AGE_MS + 1, here)).toBe(true);
    expect(lockIsStale(undefined, UNOWNED_LOCK_GRACE_MS - 1, here)).toBe(false);
    expect(lockIsStale(undefined, UNOWNED_LOCK_GRACE_MS + 1, here)).toBe(true);
  });
});
