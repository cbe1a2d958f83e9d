/**
 * Small pieces every format writer shares: the scores of a cell as text (memoised per cell, so a million
 * rows format ~20k cells' worth of numbers), the overall score, and copying an input field into
 * comma-delimited output without re-encoding it.
 */
import type { ClimateCase } from '../domain/climate.js';
import type { HazardGrid } from '../domain/scoring/grid.js';
import { perilScoreValue } from '../domain/scoring/peril-score.js';
import type { Peril } from '../domain/scoring/perils.js';
import { formulaCell } from '../lib/csv-cell.js';
import { QUOTE, fieldText, type ScannedRow } from '../csv/scanner.js';
import { isFormulaField } from './formula-field.js';
import type { OutFile } from './out-file.js';

export const COMMA = 0x2c;
export const NEWLINE = 0x0a;

/**
 * The scores of a grid cell for the run's perils, in order, then the overall score (the highest of them:
 * the scales differ, docs/scoring.md §1), computed on first use with the same perilScoreValue as
 * score-table.ts and kept: a portfolio touches a few thousand of the ~20k cells, so computing only those
 * is cheaper than the whole table.
 */
export class CellScores {
  private readonly memo: (number[] | undefined)[];
  constructor(
    private readonly grid: HazardGrid,
    private readonly perils: readonly Peril[],
    private readonly climate: ClimateCase,
  ) {
    this.memo = new Array(grid.nCells);
  }
  get(cell: number): number[] {
    let v = this.memo[cell];
    if (v === undefined) {
      v = this.perils.map((p) => perilScoreValue(this.grid, cell, p, this.climate));
      v.push(Math.max(0, ...v));
      this.memo[cell] = v;
    }
    return v;
  }
}

/** A per-cell memo of an encoded tail (scores and constants), built on first use. */
export class CellMemo {
  private readonly memo: (Buffer | undefined)[];
  constructor(
    nCells: number,
    private readonly make: (cell: number) => string,
  ) {
    this.memo = new Array(nCells);
  }
  get(cell: number): Buffer {
    let b = this.memo[cell];
    if (b === undefined) this.memo[cell] = b = Buffer.from(this.make(cell), 'utf8');
    return b;
  }
}

/**
 * Copies input field i as one field of comma-delimited output. Raw bytes when safe (the input is
 * comma-delimited, or the field is quoted, which is already valid CSV); an unquoted field of a ; / TAB / |
 * file that holds a comma is quoted, and so is one that holds a literal quote (an inch mark), so that every
 * reader, strict or not, reads the value we read. With `neutralise` (a text cell of an output a person may
 * open in a spreadsheet), a would-be formula is written as `"'=..."` (src/lib/csv-cell.ts).
 */
export function copyField(out: OutFile, r: ScannedRow, i: number, inputDelimiter: number, neutralise: boolean): void {
  if (neutralise && isFormulaField(r, i)) {
    out.utf8(formulaCell(fieldText(r, i)));
    return;
  }
  const s = r.starts[i];
  const e = r.ends[i];
  const q = r.quoted[i];
  if (q === 2) return quoteField(out, r.buf, s, e); // a literal quote (`12" Oak Ave`): quoted, the quote doubled
  if (inputDelimiter === COMMA || q) {
    out.bytes(r.buf, s, e);
    return;
  }
  const comma = r.buf.indexOf(COMMA, s);
  if (comma < 0 || comma >= e) {
    out.bytes(r.buf, s, e);
    return;
  }
  out.byte(QUOTE);
  out.bytes(r.buf, s, e);
  out.byte(QUOTE);
}

/** buf[s, e) as one quoted CSV field, its quotes doubled (RFC 4180). */
function quoteField(out: OutFile, buf: Buffer, s: number, e: number): void {
  out.byte(QUOTE);
  for (let k = s; k < e; k++) {
    if (buf[k] === QUOTE) out.byte(QUOTE);
    out.byte(buf[k]);
  }
  out.byte(QUOTE);
}
