/**
 * `catintel model build` through the package cache: a package built before from the same code, data and
 * options (domain/cache-key.ts) is copied from the cache instead of built again, and a package built here
 * is stored for the next time. The build is deterministic, so the copy is the package a build would write,
 * byte for byte, manifest included: its run and completed_at are those of the build that made it.
 *
 * A second build of the same package while one runs waits for it (lock.ts) and then copies. The cache is a
 * convenience: a cache that cannot be written (a read-only home) or an entry that fails its check never
 * fails the build; the first is told in a warning, the second is dropped and built anew.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { BuildPackageResult } from '../hurricane/package/build.js';
import type { PackageModel } from '../package-kind.js';
import { buildInputsOf } from './build-inputs.js';
import { entryNameOf, packageCacheKey } from './domain/cache-key.js';
import { copyEntryInto, dropEntry, evictEntries, InvalidEntry, readEntry, storeEntry, touchEntry } from './entries.js';
import { codeDigest, dataDigest, fileDigest, runtimeOf } from './fingerprints.js';
import { lockOrWait, type HeldLock } from './lock.js';

export interface CachedBuildOptions {
  model: PackageModel;
  years: number;
  seed: number;
  /** The shared data directory the build reads. */
  dataDir: string;
  out: string;
  location?: string;
  /** The cache folder (src/lib/cache-dir.ts); undefined: the cache is off (--no-cache). */
  cacheDir: string | undefined;
  build: () => Promise<BuildPackageResult>;
  progress: (message: string) => void;
}

export interface CacheOutcome {
  /** hit: copied from the cache; miss: built here (and stored, unless `warning` says otherwise); off: --no-cache. */
  cache: 'hit' | 'miss' | 'off';
  /** The entry's folder (when the cache is on). */
  cacheEntry?: string;
  /** When the reused package was built (its manifest's completed_at). */
  builtAt?: string;
  /** Seconds spent on the cache key (hashing the code, the data and the book). */
  cacheKeySeconds?: number;
  /** Why the cache could not be used or written; the build stands. */
  cacheWarning?: string;
}

export type CachedBuildResult = BuildPackageResult & CacheOutcome;

const reasonOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

export async function cachedBuild(o: CachedBuildOptions): Promise<CachedBuildResult> {
  if (!o.cacheDir) return { ...(await o.build()), cache: 'off' };
  const t0 = performance.now();
  const key = packageCacheKey({
    model: o.model,
    years: o.years,
    seed: o.seed,
    oedLocation: o.location ? fileDigest(o.location) : undefined,
    code: codeDigest(),
    data: dataDigest(o.dataDir, await buildInputsOf(o.model)),
    runtime: runtimeOf(),
  });
  const cacheKeySeconds = Math.round(performance.now() - t0) / 1000;
  const entry = path.join(o.cacheDir, 'models', entryNameOf(o.model, key));
  const outcome = { cacheEntry: entry, cacheKeySeconds };

  const reused = await reuse(entry, o.out);
  if (reused) return { ...reused, ...outcome };
  let lock: HeldLock | undefined;
  try {
    lock = await lockOrWait(
      `${entry}.lock`,
      () => readEntry(entry) !== undefined,
      (owner) =>
        o.progress(`waiting for another build of this package${owner ? ` (pid ${owner.pid} on ${owner.host})` : ''}`),
    );
  } catch (err) {
    // The cache folder cannot be written: build without it.
    const result = await o.build();
    return { ...result, cache: 'miss', ...outcome, cacheWarning: `the cache is not writable: ${reasonOf(err)}` };
  }
  try {
    // The builder this one waited for has stored it.
    const waited = await reuse(entry, o.out);
    if (waited) return { ...waited, ...outcome };
    // A folder at the entry's name that is not a whole entry (its manifest or answer removed or spoilt by
    // hand: entries are renamed into place whole) would keep the new one from being renamed into place.
    if (fs.existsSync(entry)) dropEntry(entry);
    const result = await o.build();
    try {
      await storeEntry(entry, o.out, result);
    } catch (err) {
      return {
        ...result,
        cache: 'miss',
        ...outcome,
        cacheWarning: `the package was not stored in the cache: ${reasonOf(err)}`,
      };
    }
    try {
      evictEntries(path.dirname(entry));
    } catch {
      // the older entries stay until the next store: the package is stored all the same
    }
    return { ...result, cache: 'miss', ...outcome };
  } finally {
    lock?.release();
  }
}

/** The entry copied into `out`, or undefined when there is none or it fails its check (then dropped). */
async function reuse(entry: string, out: string): Promise<(BuildPackageResult & CacheOutcome) | undefined> {
  const found = readEntry(entry);
  if (!found) return undefined;
  try {
    await copyEntryInto(found, out);
  } catch (err) {
    if (!(err instanceof InvalidEntry)) throw err;
    dropEntry(entry);
    return undefined;
  }
  try {
    touchEntry(entry);
  } catch {
    // a read-only cache is still a cache to read from
  }
  return { ...found.build, out, cache: 'hit', builtAt: found.manifest.completed_at };
}
