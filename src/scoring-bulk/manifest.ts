/**
 * `manifest.json` of a bulk run's output directory: written last, after every output has been renamed
 * into place, with each output's row count, size and SHA-256. The outputs are renamed one at a time
 * (there is no atomic rename of several files), so the old manifest is removed before the first rename:
 *
 *   manifest present, every file matching its size and checksum  -> one complete set (that run's)
 *   no manifest                                                  -> a run was interrupted while committing
 *                                                                   (or none has finished): re-run it
 *
 * A killed run also leaves its hidden temporaries (`.<name>.<pid>-<hex>.tmp`, tens of MB); the next run in
 * the same directory removes those whose process is gone (removeStaleTemps).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { processAlive } from '../lib/process-alive.js';
import { tempPathOf } from './out-file.js';
import type { BulkSummary, FileDigest } from './types.js';

export const MANIFEST = 'manifest.json';

/**
 * A run's temporary: `.<name>.<pid>-<hex>.tmp` (tempPathOf), with any suffix a writer adds to it, or
 * DuckDB's own `tmp_` copy of one (COPY ... TO writes `tmp_<file>` and renames it when done, so a kill
 * mid-COPY leaves that behind).
 */
const TEMP_RE = /^(?:tmp_)?\..+\.(\d+)-[0-9a-f]+\.tmp(\.[a-z]+)?$/;

export async function removeStaleTemps(dir: string): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await fs.promises.readdir(dir).catch(() => [] as string[])) {
    const pid = Number(TEMP_RE.exec(name)?.[1]);
    if (!pid || pid === process.pid || processAlive(pid)) continue;
    await fs.promises.rm(path.join(dir, name), { force: true, recursive: true });
    removed.push(name);
  }
  return removed;
}

/** Before the first output is renamed: from here until the new manifest, the directory says "incomplete". */
export async function removeManifest(dir: string): Promise<void> {
  await fs.promises.rm(path.join(dir, MANIFEST), { force: true });
}

export async function sha256Of(file: string): Promise<FileDigest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/** `known`: digests already taken of some outputs (by final path); the others are read and hashed here. */
export async function writeManifest(dir: string, token: string, s: BulkSummary, known?: Map<string, FileDigest>): Promise<string> {
  const outputs = [];
  for (const o of s.outputs) outputs.push({ file: path.basename(o.file), rows: o.rows, ...(known?.get(o.file) ?? (await sha256Of(o.file))) });
  const manifest = {
    manifest_version: 1,
    run: token,
    completed_at: new Date().toISOString(),
    input: s.input,
    format: s.format,
    scenario: s.scenario,
    horizon: s.horizon,
    perils: s.perils,
    rows: s.rows,
    scored: s.scored,
    errors: s.errors,
    outside_coverage: s.outside_coverage,
    outputs,
  };
  const temp = tempPathOf(dir, MANIFEST, token);
  const final = path.join(dir, MANIFEST);
  await fs.promises.writeFile(temp, JSON.stringify(manifest, null, 2) + '\n');
  await fs.promises.rename(temp, final);
  return final;
}
