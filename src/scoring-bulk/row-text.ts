/**
 * Small pieces every format writer shares: the scores of a cell as text (memoised per cell, so a million
 * rows format ~20k cells' worth of numbers), the overall score, and copying an input field into
 * comma-delimited output without re-encoding it.
 */
import type { Peril } from '../domain/scoring/perils.js';
import type { ScoreTable } from '../domain/scoring/score-table.js';
import { QUOTE, type ScannedRow } from './csv-scan.js';
import type { OutFile } from './out-file.js';

export const COMMA = 0x2c;
export const NEWLINE = 0x0a;

/** The row's overall score: the highest of the scored perils (the scales differ; docs/scoring.md §1). */
export function overallScore(table: ScoreTable, perils: readonly Peril[], cell: number): number {
  let best = 0;
  for (const p of perils) if (table[p][cell] > best) best = table[p][cell];
  return best;
}

/** A per-cell memo of an encoded tail (scores and constants), built on first use. */
export class CellMemo {
  private readonly memo: (Buffer | undefined)[];
  constructor(nCells: number, private readonly make: (cell: number) => string) {
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
 * file that holds a comma is quoted.
 */
export function copyField(out: OutFile, r: ScannedRow, i: number, inputDelimiter: number): void {
  const s = r.starts[i];
  const e = r.ends[i];
  if (inputDelimiter === COMMA || r.quoted[i]) {
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
