/**
 * SIGKILL at random moments of `catintel oasis run` (real child processes, seeded kill points over the
 * whole run, most of them while the ORD files are written), alternating two runs into one output
 * directory: PiWind with 100 samples, gul and il (20 CSV files), and with 60 samples, gul only, as Parquet
 * (10 files, written through DuckDB), so an old and a new set differ in content, in which files they have
 * and in how they are written. After every kill the directory
 * holds one complete set, as its manifest.json says (every file it lists matching its size and SHA-256,
 * the set of one finished run, and no ORD file beside them that it does not list), or no manifest at all
 * (a commit was interrupted: re-run); never a set that looks complete and is not. The next run removes
 * the killed runs' hidden temporaries, and the final run leaves exactly its own set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { readManifest as readSetManifest, setOf, setOnDisk, sha256, type SetManifest } from './helpers/output-sets.js';
import { KILL_SEED, killsFor, RunLength, runAndKill, seeded } from './helpers/kill.js';
import { sharedData } from './helpers/paths.js';

interface Manifest extends SetManifest {
  samples: number;
}

const PIWIND = sharedData('oasis_piwind');
const work = tempDir('catintel-kill-oasis-');
const readManifest = (dir: string) => readSetManifest<Manifest>(dir);
const temps = (dir: string) => fs.readdirSync(dir).filter((f) => f.startsWith('.') && f.endsWith('.tmp'));
const ordFiles = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => /^(gul|il)_S\d+_.*\.(csv|parquet)$/.test(f))
    .sort();
/** What a manifest says, without the run's own id and time: two runs of one setting give the same. */

/** PiWind's analysis settings with `samples` samples, the il perspective or not, CSV or Parquet outputs. */
function settings(name: string, samples: number, il: boolean, parquet = false): string {
  const s = JSON.parse(
    fs.readFileSync(path.join(PIWIND, 'expected_all_outputs', 'output', 'analysis_settings.json'), 'utf8'),
  );
  s.number_of_samples = samples;
  if (!il) {
    s.il_output = false;
    delete s.il_summaries;
  }
  if (parquet) for (const x of s.gul_summaries) x.ord_output.parquet_format = true;
  const file = path.join(work, name);
  fs.writeFileSync(file, JSON.stringify(s));
  return file;
}

const runs = [settings('a.json', 100, true), settings('b.json', 60, false, true)];
const args = (settingsFile: string, out: string) => [
  '--quiet',
  'oasis',
  'run',
  '--model',
  path.join(PIWIND, 'model_data'),
  '--input',
  path.join(PIWIND, 'expected_all_outputs', 'input'),
  '--settings',
  settingsFile,
  '--out',
  out,
];
const sets: string[][] = [];
let runMs = 0;
/** 20 at the full count (CI), 12 in `make test`. */
const KILLS = killsFor(20);

beforeAll(async () => {
  for (const [i, file] of runs.entries()) {
    const out = path.join(work, `reference-${i}`);
    const t = await runAndKill(args(file, out), Infinity);
    expect(t.code, t.stderr).toBe(0);
    runMs = Math.max(runMs, t.ms);
    const m = readManifest(out);
    if (!m)
      throw new Error(
        `a finished run wrote no manifest.json in ${out}: nothing tells a complete set from a killed one`,
      );
    for (const o of m.outputs)
      expect({ bytes: fs.statSync(path.join(out, o.file)).size, sha256: sha256(path.join(out, o.file)) }).toEqual({
        bytes: o.bytes,
        sha256: o.sha256,
      });
    expect(m.outputs.map((o) => o.file).sort()).toEqual(ordFiles(out));
    sets.push(setOf(m));
  }
  expect(sets[0]).toHaveLength(20);
  expect(sets[1]).toHaveLength(10);
}, 120_000);

describe(`oasis run killed at random moments (seed ${KILL_SEED})`, () => {
  it(`${KILLS} kills never leave a set that looks complete and is not; stale temporaries are removed; the re-run completes`, async () => {
    const random = seeded(KILL_SEED + 2);
    const out = path.join(work, 'out');
    const outcomes = { killed: 0, withTemps: 0, complete: 0, noManifest: 0 };
    const runLength = new RunLength(runMs);
    for (let k = 0; k < KILLS; k++) {
      // Most kill points in the second half of a run, where the files are written; some after it ends.
      const at = runLength.at(0.3 + random() * 1.0);
      const where = `kill ${k} at ${at} ms (seed ${KILL_SEED + 2})`;
      const t = await runAndKill(args(runs[k % 2], out), at);
      runLength.observe(t);
      if (t.finished) expect(t.code, `${where}: ${t.stderr}`).toBe(0);
      else outcomes.killed++;
      if (!fs.existsSync(out)) continue;
      if (temps(out).length > 0) outcomes.withTemps++;
      const m = readManifest(out);
      if (!m) {
        outcomes.noManifest++;
        continue;
      }
      outcomes.complete++;
      // A manifest: the ORD files in the directory are exactly one finished run's set.
      expect(ordFiles(out), where).toEqual(m.outputs.map((o) => o.file).sort());
      expect(setOnDisk(out, m), where).toEqual(setOf(m));
      expect([sets[0], sets[1]], where).toContainEqual(setOf(m));
    }
    console.log(`oasis run kill trials (seed ${KILL_SEED + 2}, run ${runMs} ms): ${JSON.stringify(outcomes)}`);
    expect(outcomes.killed).toBeGreaterThanOrEqual(Math.ceil(0.4 * KILLS)); // 8 of 20
    expect(outcomes.withTemps).toBeGreaterThan(0); // some kills landed while the files were being written

    const final = await runAndKill(args(runs[1], out), Infinity);
    expect(final.code, final.stderr).toBe(0);
    expect(temps(out)).toEqual([]);
    expect(setOf(readManifest(out)!)).toEqual(sets[1]);
    expect(fs.readdirSync(out).sort()).toEqual([...ordFiles(out), 'manifest.json'].sort());
  }, 300_000);
});
