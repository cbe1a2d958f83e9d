/**
 * keys.csv and keys-errors.csv from the side files (side-files.ts).
 *
 * LocID is oasislmf's loc_id (oasislmf/utils/data.py get_ids): the distinct (PortNumber, AccNumber,
 * LocNumber) triples of location.csv numbered from 1 in sorted order, the values compared as strings.
 * DuckDB ranks them (dense_rank; VARCHAR compares bytewise, which is code-point order as in Python) and
 * writes the LocID of each location.csv row, in row order, to a small file; keys.csv is then written
 * here row by row from those LocIDs and the (mask, cell) pairs. That costs a fraction of a DuckDB COPY of
 * the same millions of rows (measured: ~1 s of CPU for 2.8 M keys rows, ~0.25 s here), and avoids
 * streaming query results into JavaScript, which crosses one 2,048-row chunk at a time (measured too:
 * fetching the LocIDs as Int32 vectors took longer than this COPY and the parse together). keys-errors.csv,
 * usually small, is one DuckDB COPY.
 *
 * The ranking is done before the main pass has finished, over every data row, on the bet that none is
 * left out of location.csv (an OED file with usable coordinates keeps every row), and keys.csv is written
 * as the main pass flushes its (mask, cell) pairs; if the main pass reports a row left out, the ranks are
 * recomputed without the rows left out and keys.csv is written again.
 *
 * One keys row per (location, peril, coverage type) for each scored peril with an OED code that the
 * location's LocPerilsCovered includes and each coverage type with a positive TIV (1 BuildingTIV, 2
 * OtherTIV, 3 ContentsTIV, 4 BITIV; buildings alone when the row has none), as oasislmf's keys hold one row
 * per coverage type its items are made for; AreaPerilID = (cell + 1) * 10 + peril index (src/oed/perils.ts); VulnerabilityID 0: catintel assigns no
 * vulnerability. Both files list locations in location.csv order. Locations outside the covered area, or
 * covering none of the perils we key, get keys-errors rows with Status nomatch and the reason.
 */
import fs from 'node:fs';
import { PERILS, type Peril } from '../../domain/scoring/perils.js';
import { OED_CODE, areaPerilId } from '../../oed/perils.js';
import { sqlPath, type Duck } from '../scratch-duckdb.js';
import { SIDE_INTS } from './side-files.js';
import { OutFile, tempPathOf } from '../out-file.js';

export const KEYS_HEADER = 'LocID,PerilID,CoverageTypeID,AreaPerilID,VulnerabilityID\n';
export const KEYS_ERRORS_HEADER = 'LocID,PerilID,CoverageTypeID,Status,Message\n';

const str = (s: string) => `'${s.replaceAll("'", "''")}'`;
const csv = (path: string, columns: string) =>
  `read_csv(${sqlPath(path)}, header = false, auto_detect = false, delim = ',', quote = '"', escape = '"', columns = {${columns}})`;
const BLOCK_ROWS = 1 << 16;

export interface SideOfMain {
  /** location.csv rows; rows of them with keys-errors rows; data rows left out of location.csv. */
  locationRows: number;
  errorRows: number;
  excluded: number;
}

export interface KeysPaths {
  outDir: string;
  token: string;
  pendingPath: string;
  sidePath: string;
  sideErrorsPath: string;
  excludedPath: string;
}

export const sidePaths = (outDir: string, token: string): KeysPaths => ({
  outDir,
  token,
  pendingPath: tempPathOf(outDir, 'keys-pending.csv', token),
  sidePath: tempPathOf(outDir, 'keys-side.bin', token),
  sideErrorsPath: tempPathOf(outDir, 'keys-side-errors.csv', token),
  excludedPath: tempPathOf(outDir, 'keys-excluded.csv', token),
});

/**
 * What the main pass has told the keys job so far: how many location.csv rows it has flushed to the side
 * files, how many data rows it left out, and at the end the totals.
 */
export interface MainFeed {
  /** Resolves once more than `seen` location rows are flushed, a row is left out, or the main pass is done. */
  wait(seen: number): Promise<{ flushed: number; excluded: number; done: SideOfMain | null }>;
  /** Resolves when the main pass is done. */
  finished(): Promise<SideOfMain>;
}

/**
 * The keys job after the side file of keys is complete: rank every data row (the bet that none is left
 * out), write keys.csv while following the main pass, then keys-errors.csv. If the main pass left rows out,
 * rank again without them and write keys.csv again.
 */
export async function writeOasisKeys(
  d: Duck,
  p: KeysPaths,
  feed: MainFeed,
  perils: readonly Peril[],
): Promise<{ keys: number; keysErrors: number }> {
  const ranksPath = tempPathOf(p.outDir, 'keys-ranks.csv', p.token);
  const keysErrorsPath = tempPathOf(p.outDir, 'keys-errors.csv', p.token);
  const keyed = perils.filter((x) => OED_CODE[x] !== null);
  try {
    await d.run(
      `CREATE TEMP TABLE pend AS SELECT * FROM ${csv(p.pendingPath, `'d': 'INTEGER', 'p': 'VARCHAR', 'a': 'VARCHAR', 'l': 'VARCHAR'`)}`,
    );
    await fs.promises.rm(p.pendingPath, { force: true });
    await d.run(`CREATE TEMP TABLE ranks AS SELECT d, dense_rank() OVER (ORDER BY p, a, l) AS loc_id FROM pend`);
    await d.run(`COPY (SELECT loc_id FROM ranks ORDER BY d) TO ${sqlPath(ranksPath)} (HEADER false)`);
    let keys = await writeKeys(p, ranksPath, keyed, feed, true);
    const main = await feed.finished();
    if (keys < 0 || main.excluded > 0) {
      await d.run(`CREATE OR REPLACE TEMP TABLE ranks AS SELECT d, dense_rank() OVER (ORDER BY p, a, l) AS loc_id FROM pend
        WHERE d NOT IN (SELECT d FROM ${csv(p.excludedPath, `'d': 'INTEGER'`)})`);
      const ranked = await d.run(`COPY (SELECT loc_id FROM ranks ORDER BY d) TO ${sqlPath(ranksPath)} (HEADER false)`);
      if (ranked !== main.locationRows)
        throw new Error(`the keys pass ranked ${ranked} locations, location.csv has ${main.locationRows}`);
      keys = await writeKeys(p, ranksPath, keyed, feed, false); // the main pass is done: no waiting
    }
    return { keys, keysErrors: await writeKeysErrors(d, p, main, keyed, keysErrorsPath) };
  } finally {
    await fs.promises.rm(ranksPath, { force: true });
  }
}

async function writeKeysErrors(
  d: Duck,
  p: KeysPaths,
  main: SideOfMain,
  keyed: Peril[],
  keysErrorsPath: string,
): Promise<number> {
  if (main.errorRows === 0) {
    await fs.promises.writeFile(keysErrorsPath, KEYS_ERRORS_HEADER);
    return 0;
  }
  const scoredCodes = keyed.map((x) => OED_CODE[x]).join(', ');
  // (peril index, OED code) of the keyed perils; a row no mask bit matches stands in for an empty list.
  const codes = keyed.length ? keyed.map((x) => `(${PERILS.indexOf(x)}, ${str(OED_CODE[x]!)})`).join(', ') : `(30, '')`;
  const outside = `'lat=' || lat || ', lng=' || lng || ' is outside the covered area (US states, DC and territories); scores exist only for points on or near US land'`;
  const none = `'none of the perils in LocPerilsCovered (' || coalesce(pc, 'blank') || ') is one catintel scores (' || ${str(scoredCodes || 'none')} || ')'`;
  const side = csv(
    p.sideErrorsPath,
    `'d': 'INTEGER', 'mask': 'INTEGER', 'cell': 'INTEGER', 'cov': 'INTEGER', 'lat': 'VARCHAR', 'lng': 'VARCHAR', 'pc': 'VARCHAR'`,
  );
  // One row per coverage type the location has a value for, as in keys.csv.
  return d.run(`COPY (
    WITH e AS (SELECT s.*, r.loc_id, t AS CoverageTypeID FROM ${side} s JOIN ranks r USING (d), (VALUES (1), (2), (3), (4)) AS ct(t) WHERE (cov >> (t - 1)) & 1 = 1)
    SELECT LocID, PerilID, CoverageTypeID, Status, Message FROM (
      SELECT loc_id AS LocID, code AS PerilID, d, idx AS o, CoverageTypeID, 'nomatch' AS Status, ${outside} AS Message
      FROM e, (VALUES ${codes}) AS codes(idx, code) WHERE cell < 0 AND (mask >> idx) & 1 = 1
      UNION ALL
      SELECT loc_id, coalesce(pc, ''), d, -1, CoverageTypeID, 'nomatch', CASE WHEN cell < 0 THEN ${outside} || '; ' ELSE '' END || ${none}
      FROM e WHERE mask = 0
    ) ORDER BY d, o, CoverageTypeID
  ) TO ${sqlPath(keysErrorsPath)} (HEADER, DELIMITER ',')`);
}

/**
 * keys.csv from the LocIDs and the (mask, cell) pairs, following the main pass as it flushes the pairs.
 * With `bet`, gives up (returns -1) as soon as the main pass reports a row left out: the ranks were made
 * over every data row and are then wrong.
 */
async function writeKeys(
  p: KeysPaths,
  ranksPath: string,
  keyed: Peril[],
  feed: MainFeed,
  bet: boolean,
): Promise<number> {
  const keyedIndex = Int32Array.from(keyed, (x) => PERILS.indexOf(x));
  // Each row is LocID "," code "," coverage type "," AreaPerilID ",0\n", and AreaPerilID = (cell + 1) * 10 + peril index
  // is the digits of cell + 1 followed by the index digit. Everything is written from small arrays that
  // stay in cache: rows come in file order, cells at random, and a per-(cell, peril) text table was
  // measured 2-3x slower for the cache misses.
  const prefixes = keyed.map((x) => Buffer.from(`,${OED_CODE[x]},`));
  if (keyed.some((x, k) => areaPerilId(123, x) !== 1240 + keyedIndex[k]))
    throw new Error('AreaPerilID layout changed; update writeKeys');
  const locDigits = new Uint8Array(12);
  const cellDigits = new Uint8Array(12);
  const out = await OutFile.create(p.outDir, 'keys.csv', p.token);
  out.latin1(KEYS_HEADER);
  // A row needs at most (keyed perils) x (4 coverage types) x (LocID 10 digits + prefix 6 + 2 + AreaPerilID 11 + 3).
  const perRow = keyedIndex.length * 4 * 36;
  const complete = await forEachBlock(p.sidePath, ranksPath, feed, bet, async (n, rank, mask, cell, coverages) => {
    let { buf, at } = out.reserve(1 << 16);
    let start = at;
    for (let j = 0; j < n; j++) {
      const c = cell[j];
      const m = mask[j];
      const cov = coverages[j];
      if (c < 0 || m === 0) continue;
      if (buf.length - at < perRow) {
        out.advance(at - start);
        ({ buf, at } = out.reserve(1 << 16));
        start = at;
      }
      let nl = 0;
      for (let x = rank[j]; x > 0; x = (x / 10) | 0) locDigits[nl++] = 48 + (x % 10);
      let nc = 0;
      for (let x = c + 1; x > 0; x = (x / 10) | 0) cellDigits[nc++] = 48 + (x % 10);
      for (let k = 0; k < keyedIndex.length; k++) {
        const pi = keyedIndex[k];
        if (((m >> pi) & 1) === 0) continue;
        for (let t = 0; t < 4; t++) {
          if (((cov >> t) & 1) === 0) continue;
          for (let q = nl - 1; q >= 0; q--) buf[at++] = locDigits[q];
          const pre = prefixes[k];
          for (let q = 0; q < pre.length; q++) buf[at++] = pre[q];
          buf[at++] = 0x31 + t; // CoverageTypeID t + 1
          buf[at++] = 0x2c; // ,
          for (let q = nc - 1; q >= 0; q--) buf[at++] = cellDigits[q];
          buf[at++] = 48 + pi;
          buf[at++] = 0x2c; // ,
          buf[at++] = 0x30; // 0
          buf[at++] = 0x0a;
          out.rows++;
        }
      }
    }
    out.advance(at - start);
    await out.drain();
  });
  await out.close();
  return complete ? out.rows : -1;
}

/**
 * Walks the location.csv rows in blocks as the main pass flushes them: the LocIDs (one decimal per line in
 * `ranksPath`) and the (mask, cell, coverages) triples of the binary side file, in step. Returns false if it gave up
 * because the main pass left a row out (only with `bet`).
 */
async function forEachBlock(
  sidePath: string,
  ranksPath: string,
  feed: MainFeed,
  bet: boolean,
  onBlock: (n: number, rank: Int32Array, mask: Int32Array, cell: Int32Array, coverages: Int32Array) => Promise<void>,
): Promise<boolean> {
  const side = await fs.promises.open(sidePath, 'r');
  const ranks = await fs.promises.open(ranksPath, 'r');
  const rank = new Int32Array(BLOCK_ROWS);
  const mask = new Int32Array(BLOCK_ROWS);
  const cell = new Int32Array(BLOCK_ROWS);
  const coverages = new Int32Array(BLOCK_ROWS);
  const pairs = new Int32Array(BLOCK_ROWS * SIDE_INTS);
  const rowBytes = 4 * SIDE_INTS;
  const pairBytes = new Uint8Array(pairs.buffer);
  const text = Buffer.alloc(BLOCK_ROWS * 12);
  let carry = 0; // digits of a rank split across reads
  let textLen = 0;
  let textPos = 0;
  try {
    let seen = 0;
    for (;;) {
      const f = await feed.wait(seen);
      if (bet && f.excluded > 0) return false;
      const total = f.done ? f.done.locationRows : f.flushed;
      if (seen >= total) {
        if (f.done) return true;
        continue;
      }
      const n = Math.min(BLOCK_ROWS, total - seen);
      const { bytesRead } = await side.read(pairBytes, 0, n * rowBytes, seen * rowBytes);
      if (bytesRead !== n * rowBytes)
        throw new Error(`keys side file ended at row ${seen + bytesRead / rowBytes}, expected ${total}`);
      for (let j = 0; j < n; j++) {
        mask[j] = pairs[SIDE_INTS * j];
        cell[j] = pairs[SIDE_INTS * j + 1];
        coverages[j] = pairs[SIDE_INTS * j + 2];
      }
      for (let j = 0; j < n;) {
        if (textPos === textLen) {
          textLen = (await ranks.read(text, 0, text.length, null)).bytesRead;
          textPos = 0;
          if (textLen === 0) throw new Error(`LocID file ended at row ${seen + j}, expected ${total}`);
        }
        const c = text[textPos++];
        if (c === 0x0a) {
          rank[j++] = carry;
          carry = 0;
        } else if (c !== 0x0d) carry = carry * 10 + (c - 0x30);
      }
      await onBlock(n, rank, mask, cell, coverages);
      seen += n;
    }
  } finally {
    await side.close();
    await ranks.close();
  }
}
