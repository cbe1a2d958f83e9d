/**
 * The TIV a summary-info file reports for a summary set over all risks, from the perspective's summary
 * map (gul_summary_map.csv, fm_summary_map.csv), as Oasis computes it: the map's rows in the order of
 * their id column (item_id, output_id), one row per (loc_id, building_id, coverage_type_id), the first
 * kept, their `tiv` summed. The map holds the TIV as the location file gave it, where coverages.csv
 * holds it rounded to float32, so the two differ on TIVs with cents.
 */
import fs from 'node:fs';
import { CatintelError } from '../../errors.js';
import { pairwiseSum } from '../domain/pairwise-sum.js';
import { readTable } from './csv.js';
import { InputFiles } from './input-files.js';

/** Columns by name from a CSV whose text fields may be quoted (an AccNumber with a comma); `bytes`: its contents. */
export function quotedColumns(file: string, names: string[], bytes: Buffer = fs.readFileSync(file)): Float64Array[] {
  const lines = bytes
    .toString('utf8')
    .split(/\r?\n/)
    .filter((l) => l.length > 0);
  const header = splitQuoted(lines[0]);
  const at = names.map((n) => {
    const j = header.indexOf(n);
    if (j < 0)
      throw new CatintelError(
        'invalid_input',
        `${file}: column ${n} is missing (header: ${lines[0]}); expected ${names.join(',')}`,
      );
    return j;
  });
  const cols = names.map(() => new Float64Array(lines.length - 1));
  for (let i = 1; i < lines.length; i++) {
    const cells = splitQuoted(lines[i]);
    at.forEach((j, k) => {
      const v = Number(cells[j]);
      if (cells[j] === undefined || cells[j].trim() === '' || !Number.isFinite(v))
        throw new CatintelError(
          'invalid_input',
          `${file} line ${i + 1}: ${names[k]} "${cells[j] ?? ''}" is not a number`,
        );
      cols[k][i - 1] = v;
    });
  }
  return cols;
}

/** One CSV line's cells: a field that starts with a quote runs to its closing quote; "" is a quote. */
function splitQuoted(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (line[i] === '"') {
      i++;
      while (i < line.length) {
        if (line[i] === '"' && line[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (line[i] === '"') {
          i++;
          break;
        } else cell += line[i++];
      }
      while (i < line.length && line[i] !== ',') cell += line[i++];
    } else {
      const c = line.indexOf(',', i);
      cell = line.slice(i, c < 0 ? line.length : c);
      i = c < 0 ? line.length : c;
    }
    out.push(cell);
    if (i >= line.length) return out;
    i++;
  }
}

/**
 * Columns by name of a summary map (a map with a quote anywhere read as quoted CSV), or undefined when
 * the input has no such map.
 */
export function summaryMapColumns(
  input: InputFiles,
  mapName: 'gul_summary_map.csv' | 'fm_summary_map.csv',
  names: string[],
): Float64Array[] | undefined {
  if (!input.has(mapName)) return undefined;
  const got = input.tableOrBytes(mapName, names);
  const file = input.path(mapName);
  if (Buffer.isBuffer(got) && got.includes(0x22)) return quotedColumns(file, names, got);
  const t = Buffer.isBuffer(got) ? readTable(file, names, got) : got;
  return names.map((n) => t.col(n));
}

/** The columns of a summary map its TIV is made of, after the id column that orders its rows. */
export const SUMMARY_TIV_COLUMNS = ['loc_id', 'building_id', 'coverage_type_id', 'tiv'];

/**
 * The summary map's TIV, or undefined when the input directory has no such map (the caller then sums
 * coverages.csv). `idColumn` orders the rows: item_id for the gul map, output_id for the fm map.
 */
export function summaryMapTiv(
  inputDir: string | InputFiles,
  mapName: 'gul_summary_map.csv' | 'fm_summary_map.csv',
  idColumn: 'item_id' | 'output_id',
): number | undefined {
  const cols = summaryMapColumns(InputFiles.of(inputDir), mapName, [idColumn, ...SUMMARY_TIV_COLUMNS]);
  return cols && summaryTiv(cols);
}

/** The TIV of a summary map's columns: its id column, then SUMMARY_TIV_COLUMNS. */
export function summaryTiv(cols: Float64Array[]): number {
  const [id, loc, building, coverageType, tiv] = cols;
  // A stable sort by the id column, as Oasis sorts the map before it drops the repeated coverages (a
  // map written in id order, as `oasis files` writes it, is its own sort).
  const order = inOrder(id) ? null : Array.from(id, (_, i) => i).sort((a, b) => id[a] - id[b] || a - b);
  const small = smallCounts(loc, 1 << 26) && smallCounts(building, 1 << 21) && smallCounts(coverageType, 1 << 6);
  const kept: number[] = [];
  if (small) {
    // Ids that fit pack into two small integers: a hash set of them, with no number or string made per row.
    const seen = new PairSet(id.length);
    for (let k = 0; k < id.length; k++) {
      const i = order === null ? k : order[k];
      if (seen.add(loc[i], building[i] * 64 + coverageType[i])) kept.push(tiv[i]);
    }
  } else {
    const seen = new Set<string>();
    for (let k = 0; k < id.length; k++) {
      const i = order === null ? k : order[k];
      const key = `${loc[i]},${building[i]},${coverageType[i]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      kept.push(tiv[i]);
    }
  }
  return pairwiseSum(kept);
}

function inOrder(a: Float64Array): boolean {
  for (let i = 1; i < a.length; i++) if (a[i] < a[i - 1]) return false;
  return true;
}

/** Every value a whole number in [0, limit). */
function smallCounts(a: Float64Array, limit: number): boolean {
  for (let i = 0; i < a.length; i++) if (!(Number.isInteger(a[i]) && a[i] >= 0 && a[i] < limit)) return false;
  return true;
}

/** A set of pairs of whole numbers in [0, 2^31): open addressing over two Int32Arrays. */
class PairSet {
  private readonly first: Int32Array;
  private readonly second: Int32Array;
  private readonly mask: number;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.first = new Int32Array(size).fill(-1);
    this.second = new Int32Array(size);
    this.mask = size - 1;
  }

  /** Adds (a, b); false when it was there already. */
  add(a: number, b: number): boolean {
    let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77)) & this.mask;
    for (;;) {
      const at = this.first[slot];
      if (at === -1) {
        this.first[slot] = a;
        this.second[slot] = b;
        return true;
      }
      if (at === a && this.second[slot] === b) return false;
      slot = (slot + 1) & this.mask;
    }
  }
}
