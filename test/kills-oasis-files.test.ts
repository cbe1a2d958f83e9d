/**
 * SIGKILL at random moments of `catintel oasis files` (real child processes, seeded kill points, many of
 * them while the files are written), alternating two runs into one output directory: a seeded synthetic
 * book large enough that writing its items, coverages, summary maps and FM files takes a while, and
 * oasislmf's reinsurance4 case with its reinsurance files (an RI_1/ folder and the ri_*.json files the
 * book's set does not have). After every kill the directory holds one complete set, as its manifest.json
 * says (every file it lists, RI_1/ ones included, matching its size and SHA-256, the set of one finished
 * run, and no Oasis file or RI_n/ folder beside them that it does not list), or no manifest at all (a
 * commit was interrupted: re-run); never a set that looks complete and is not. The next run removes the
 * killed runs' hidden temporaries, and the final run leaves exactly its own set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeSyntheticOed } from '../bench/synthetic-oed.js';
import { tempDir } from './helpers/cli.js';
import { readManifest as readSetManifest, setOf, setOnDisk, sha256, type SetManifest } from './helpers/output-sets.js';
import { KILL_SEED, killsFor, RunLength, runAndKill, seeded } from './helpers/kill.js';
import { sharedData } from './helpers/paths.js';

type Manifest = SetManifest;

const BOOK_LOCATIONS = 10_000;
/** 24 at the full count (CI), 14 in `make test`. */
const KILLS = killsFor(24);
const work = tempDir('catintel-kill-oasis-files-');
const readManifest = (dir: string) => readSetManifest<Manifest>(dir);
const temps = (dir: string) => fs.readdirSync(dir).filter((f) => f.startsWith('.') && f.endsWith('.tmp'));
/** Every file a reader would take for part of a set: the Oasis files, and those in RI_n/ folders. */
function setFiles(dir: string): string[] {
  const files: string[] = [];
  for (const f of fs.readdirSync(dir)) {
    if (/^RI_\d+$/.test(f)) files.push(...fs.readdirSync(path.join(dir, f)).map((g) => `${f}/${g}`));
    else if (!f.startsWith('.') && f !== 'manifest.json') files.push(f);
  }
  return files.sort();
}
/** What a manifest says, without the run's own id and time: two runs of one input give the same. */

const book = writeSyntheticOed(path.join(work, 'book'), BOOK_LOCATIONS, KILL_SEED);
const RI = sharedData('oasis_fm_validation', 'reinsurance4');
const runs = [
  (out: string) => [
    '--quiet',
    'oasis',
    'files',
    '--oed-location',
    book.location,
    '--oed-account',
    book.account,
    '--keys',
    book.keys,
    '--out',
    out,
  ],
  (out: string) => [
    '--quiet',
    'oasis',
    'files',
    ...['location', 'account', 'ri_info', 'ri_scope'].flatMap((f) => [
      `--oed-${f.replace('_', '-')}`,
      path.join(RI, `${f}.csv`),
    ]),
    '--model-perils',
    'WTC',
    '--out',
    out,
  ],
];
const sets: string[][] = [];
const runMs: number[] = [];
/** When the book's reference run had temporaries on disk (ms from its start): the window its files are written in. */
let writing = { from: 0, to: 0 };

/** Runs to the end, noting when temporaries are in `out` (polled every 5 ms). */
async function runWatchingTemps(argv: string[], out: string) {
  fs.mkdirSync(out, { recursive: true });
  const t0 = Date.now();
  let from = -1;
  let to = -1;
  const poll = setInterval(() => {
    if (temps(out).length === 0) return;
    if (from < 0) from = Date.now() - t0;
    to = Date.now() - t0;
  }, 5);
  const t = await runAndKill(argv, Infinity);
  clearInterval(poll);
  return { t, from, to };
}

beforeAll(async () => {
  for (const [i, args] of runs.entries()) {
    const out = path.join(work, `reference-${i}`);
    const { t, from, to } = await runWatchingTemps(args(out), out);
    if (i === 0) writing = { from, to };
    expect(t.code, t.stderr).toBe(0);
    runMs.push(t.ms);
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
    expect(m.outputs.map((o) => o.file).sort()).toEqual(setFiles(out));
    sets.push(setOf(m));
  }
  expect(sets[0]).toHaveLength(8);
  expect(sets[1].filter((s) => s.startsWith('RI_1/'))).toHaveLength(4);
}, 300_000);

describe(`oasis files killed at random moments (seed ${KILL_SEED})`, () => {
  it(`${KILLS} kills never leave a set that looks complete and is not; stale temporaries are removed; the re-run completes`, async () => {
    const random = seeded(KILL_SEED + 3);
    const out = path.join(work, 'out');
    const outcomes = { killed: 0, withTemps: 0, complete: 0, noManifest: 0 };
    const lengths = runMs.map((ms) => new RunLength(ms));
    for (let k = 0; k < KILLS; k++) {
      // Two kills of the book for each of the small case: the book's mostly in the last part of its run,
      // where its files are written (about the last quarter), some after it ends; the case's mostly after it
      // ends, over a finished set.
      const which = k % 3 === 2 ? 1 : 0;
      // Every other kill of the book inside the window its reference run wrote its files in: the run is
      // mostly reading and building, and a fast writer leaves that window a tenth of the run or less.
      const inWriting = which === 0 && k % 2 === 0 && writing.from >= 0;
      // The window as fractions of the reference run, applied to the run's latest length (runs speed up
      // once the files are in the page cache).
      const [wFrom, wTo] = [(writing.from - 50) / runMs[0], (writing.to - 50) / runMs[0]];
      const at = lengths[which].at(
        inWriting ? wFrom + random() * (wTo - wFrom) : which === 0 ? 0.4 + random() * 0.9 : 0.5 + random() * 1.0,
      );
      const where = `kill ${k} at ${at} ms (seed ${KILL_SEED + 3})`;
      const t = await runAndKill(runs[which](out), at);
      lengths[which].observe(t);
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
      // A manifest: the Oasis files in the directory, RI_n/ included, are exactly one finished run's set.
      expect(setFiles(out), where).toEqual(m.outputs.map((o) => o.file).sort());
      expect(setOnDisk(out, m), where).toEqual(setOf(m));
      expect([sets[0], sets[1]], where).toContainEqual(setOf(m));
    }
    console.log(
      `oasis files kill trials (seed ${KILL_SEED + 3}, runs ${runMs.join(' and ')} ms, files written from ${writing.from} to ${writing.to} ms): ${JSON.stringify(outcomes)}`,
    );
    expect(outcomes.killed).toBeGreaterThanOrEqual(Math.ceil((10 / 24) * KILLS)); // 10 of 24
    expect(outcomes.withTemps).toBeGreaterThan(0); // some kills landed while the files were being written

    const final = await runAndKill(runs[0](out), Infinity);
    expect(final.code, final.stderr).toBe(0);
    expect(temps(out)).toEqual([]);
    expect(setOf(readManifest(out)!)).toEqual(sets[0]);
    expect([...setFiles(out), 'manifest.json'].sort()).toEqual(fs.readdirSync(out).sort());
  }, 600_000);
});
