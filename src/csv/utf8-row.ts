/**
 * A CSV row with bytes that are not UTF-8 is a row error (issue 27 item 4), never text with U+FFFD in
 * it: the bulk scorer lists it in errors.csv, a portfolio import refuses it, and nothing of it is stored
 * or copied to an output. readRows checks each chunk at once (isUtf8, memory speed), so this per-row walk
 * runs only for rows of a chunk that failed.
 */
import { invalidUtf8At } from '../lib/utf8.js';
import type { ScannedRow } from './scanned-row.js';

export interface Utf8Problem {
  /** The field (0-based) that holds the first bad byte. */
  field: number;
  /** The bad byte's offset in the file. */
  fileOffset: number;
  byte: number;
}

/** The first byte of a row that is not UTF-8, or null. */
export function rowUtf8Problem(r: ScannedRow): Utf8Problem | null {
  if (!r.mayHoldInvalidUtf8) return null;
  const at = invalidUtf8At(r.buf, r.rowStart, r.rowEnd);
  if (at < 0) return null;
  const n = Math.min(r.fieldCount, r.starts.length);
  let field = n - 1;
  for (let i = 0; i < n; i++) {
    if (at < r.ends[i]) {
      field = i;
      break;
    }
  }
  return { field, fileOffset: r.bufFileOffset + at, byte: r.buf[at] };
}

/** Whether field i of a row is UTF-8 (its text can be written out). */
export function fieldIsUtf8(r: ScannedRow, i: number): boolean {
  return !r.mayHoldInvalidUtf8 || invalidUtf8At(r.buf, r.starts[i], r.ends[i]) < 0;
}

/** "column "Name" (3) is not UTF-8 at byte 1234 of the file (0xff)": the reason a user reads. */
export function utf8ProblemText(p: Utf8Problem, columns: string[]): string {
  const name =
    columns[p.field] !== undefined ? `column "${columns[p.field]}" (${p.field + 1})` : `field ${p.field + 1}`;
  return `${name} is not valid UTF-8 at byte offset ${p.fileOffset} of the file (0x${p.byte.toString(16).padStart(2, '0')}); save the file as UTF-8 (Excel: "CSV UTF-8")`;
}
