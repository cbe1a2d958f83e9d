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
import path from 'node:path';
import { finishCommit, sha256Of } from '../lib/output-set.js';
import type { BulkSummary, FileDigest } from './types.js';

// The parts every output set shares (temporaries, the manifest's commit) live in src/lib/output-set.ts.
export { beginCommit, removeStaleTemps, sha256Of } from '../lib/output-set.js';

/**
 * Ends the commit beginCommit started (`replaced` is what it returned): removes the replaced outputs this
 * run did not write (a csv run after a parquet one leaves no scores.parquet behind) and writes the manifest.
 * `known`: digests already taken of some outputs (by final path); the others are read and hashed here.
 */
export async function writeManifest(
  dir: string,
  token: string,
  replaced: string[],
  s: BulkSummary,
  known?: Map<string, FileDigest>,
): Promise<string> {
  const outputs = [];
  for (const o of s.outputs)
    outputs.push({ file: path.basename(o.file), rows: o.rows, ...(known?.get(o.file) ?? (await sha256Of(o.file))) });
  return finishCommit(
    dir,
    token,
    replaced,
    outputs.map((o) => o.file),
    {
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
    },
  );
}
