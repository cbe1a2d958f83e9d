/**
 * The cache's entries on disk: `<cache>/models/<model>-<key>/`, a built package's files, its manifest.json
 * and build.json (what the build answered, for the answer of a reuse). An entry is written under a hidden
 * temporary name beside it and renamed into place whole, so a reader sees a complete entry or none; the
 * files of a reused entry are checked against its manifest's sizes and SHA-256 as they are copied out, and
 * an entry that fails the check is dropped (and built anew by the caller).
 */
import fs from 'node:fs';
import path from 'node:path';
import { MANIFEST, OutputSet, removeStaleTemps, runToken, sha256Of, tempPathOf } from '../../lib/output-set.js';
import type { BuildPackageResult } from '../hurricane/package/build.js';
import { PACKAGE_MODELS } from '../package-kind.js';
import { entriesToEvict } from './domain/eviction.js';

const BUILD = 'build.json';
const ENTRY_NAME = new RegExp(`^(${PACKAGE_MODELS.join('|')})-[0-9a-f]{32}$`);

interface ManifestOutputs {
  completed_at?: string;
  outputs: { file: string; rows: number; bytes: number; sha256: string }[];
}

export interface CacheEntry {
  dir: string;
  manifestText: string;
  manifest: ManifestOutputs;
  /** The answer of the build that made the entry (its `out` is where it was built). */
  build: BuildPackageResult;
}

/** An entry that is not whole or not what its manifest says: not to be used. */
export class InvalidEntry extends Error {}

/** The entry at `dir` when it has a readable manifest and build answer; undefined otherwise. */
export function readEntry(dir: string): CacheEntry | undefined {
  try {
    const manifestText = fs.readFileSync(path.join(dir, MANIFEST), 'utf8');
    const manifest = JSON.parse(manifestText) as ManifestOutputs;
    const build = JSON.parse(fs.readFileSync(path.join(dir, BUILD), 'utf8')) as BuildPackageResult;
    if (!Array.isArray(manifest.outputs)) return undefined;
    return { dir, manifestText, manifest, build };
  } catch {
    return undefined;
  }
}

/**
 * Writes the entry's package into `out` as one output set (src/lib/output-set.ts), as the build writes
 * it: a package already there is replaced whole, and the manifest, the entry's own bytes, comes last.
 * Throws InvalidEntry when a file is missing from the entry or differs from its manifest.
 */
export async function copyEntryInto(entry: CacheEntry, out: string): Promise<void> {
  const set = await OutputSet.open(out);
  try {
    for (const f of entry.manifest.outputs) {
      const from = path.join(entry.dir, f.file);
      const temp = set.tempPath(f.file);
      try {
        fs.cpSync(from, temp);
      } catch (err) {
        fs.rmSync(temp, { force: true });
        // Gone from the entry (or never there): the entry is not whole. Anything else is the output's.
        if (!fs.existsSync(from)) throw new InvalidEntry(`${f.file} is missing`);
        throw err;
      }
      const digest = await sha256Of(temp);
      if (digest.sha256 !== f.sha256 || digest.bytes !== f.bytes) {
        fs.rmSync(temp, { force: true });
        throw new InvalidEntry(`${f.file} is not the file its manifest lists`);
      }
      set.add(f.file, f.rows, digest);
    }
    await set.commitCopy(entry.manifestText);
  } catch (err) {
    await set.discard();
    throw err;
  }
}

/** Marks the entry used now (the eviction keeps the most recently used). */
export function touchEntry(dir: string): void {
  const now = new Date();
  fs.utimesSync(dir, now, now);
}

/**
 * Removes an entry: renamed out of the way first, so no reader takes a half-removed one for whole. Never
 * throws: an entry that cannot be removed (a read-only cache) stays, and is not used.
 */
export function dropEntry(dir: string): void {
  const gone = tempPathOf(path.dirname(dir), path.basename(dir), runToken());
  try {
    fs.renameSync(dir, gone);
    fs.rmSync(gone, { recursive: true, force: true });
  } catch {
    // already gone, or not ours to remove; a temporary left behind goes with the next store (removeStaleTemps)
  }
}

/**
 * Stores the package just built at `out` as the entry `dir`: its files, its answer, its manifest last,
 * in a temporary folder renamed into place. Another builder that stored the same entry first wins.
 */
export async function storeEntry(dir: string, out: string, build: BuildPackageResult): Promise<void> {
  const models = path.dirname(dir);
  await fs.promises.mkdir(models, { recursive: true });
  await removeStaleTemps(models); // entries half-written by killed builds
  const temp = tempPathOf(models, path.basename(dir), runToken());
  try {
    const manifestText = fs.readFileSync(path.join(out, MANIFEST), 'utf8');
    const manifest = JSON.parse(manifestText) as ManifestOutputs;
    fs.mkdirSync(temp);
    for (const f of manifest.outputs) {
      fs.mkdirSync(path.dirname(path.join(temp, f.file)), { recursive: true });
      fs.cpSync(path.join(out, f.file), path.join(temp, f.file));
    }
    fs.writeFileSync(path.join(temp, BUILD), JSON.stringify(build, null, 2) + '\n');
    fs.writeFileSync(path.join(temp, MANIFEST), manifestText);
    try {
      fs.renameSync(temp, dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
    }
  } finally {
    fs.rmSync(temp, { recursive: true, force: true });
  }
}

/** Drops the least recently used entries beyond what domain/eviction.ts keeps; returns their names. */
export function evictEntries(models: string): string[] {
  const entries = fs
    .readdirSync(models, { withFileTypes: true })
    .filter((d) => d.isDirectory() && ENTRY_NAME.test(d.name))
    .flatMap((d) => {
      const usedAt = fs.statSync(path.join(models, d.name), { throwIfNoEntry: false })?.mtimeMs;
      return usedAt === undefined ? [] : [{ name: d.name, model: d.name.split('-')[0], usedAt }];
    });
  const evicted = entriesToEvict(entries);
  for (const name of evicted) dropEntry(path.join(models, name));
  return evicted;
}
