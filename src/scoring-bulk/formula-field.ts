/**
 * The spreadsheet-formula rule of src/lib/csv-cell.ts on raw input bytes, for the writers that copy
 * fields byte for byte (format-cells.ts copyField, keep-columns.ts, format-oasis.ts, oasis-keys/side-files.ts). A field is
 * looked at past its first byte only when that byte is a space, a quote or a formula start, so the
 * common row costs one table lookup a field; a would-be formula is rewritten through its text.
 */
import { FORMULA_START, isFormulaText } from '../lib/csv-cell.js';
import { QUOTE, type ScannedRow } from '../csv/scanned-row.js';
import { fieldText } from '../csv/scanner.js';

const SPACE = 0x20;
const PLUS = 0x2b;
const MINUS = 0x2d;
const POINT = 0x2e;

/** First bytes that need a closer look: formula starts, and the space or quote that may come before one. */
const LOOK = FORMULA_START.slice();
LOOK[SPACE] = 1;
LOOK[QUOTE] = 1;

/** Whether field i of the row would be taken for a formula by a spreadsheet (and is not a plain number). */
export function isFormulaField(r: ScannedRow, i: number): boolean {
  const buf = r.buf;
  let k = r.starts[i];
  const e = r.ends[i];
  if (k >= e || !LOOK[buf[k]]) return false;
  if (r.quoted[i] === 1) return isFormulaText(fieldText(r, i)); // rare: a quoted field starting with a space or quote
  while (k < e && buf[k] === SPACE) k++;
  if (k >= e || !FORMULA_START[buf[k]]) return false;
  return !plainNumber(buf, k, e);
}

/** Whether any of fields [from, to] of the row (but `skipA`, `skipB`) would be a formula. */
export function rowHasFormula(r: ScannedRow, from: number, to: number, skipA = -1, skipB = -1): boolean {
  const buf = r.buf;
  const starts = r.starts;
  const ends = r.ends;
  for (let i = from; i <= to; i++) {
    if (starts[i] < ends[i] && LOOK[buf[starts[i]]] && i !== skipA && i !== skipB && isFormulaField(r, i)) return true;
  }
  return false;
}

/** buf[k, e) is `[+-]digits[.digits][e[+-]digits]` with optional trailing spaces (as PLAIN_NUMBER in csv-cell.ts). */
function plainNumber(buf: Buffer, k: number, e: number): boolean {
  while (e > k && buf[e - 1] === SPACE) e--;
  if (buf[k] === PLUS || buf[k] === MINUS) k++;
  let digits = 0;
  let point = false;
  for (; k < e; k++) {
    const c = buf[k];
    if (c >= 0x30 && c <= 0x39) digits++;
    else if (c === POINT && !point) point = true;
    else break;
  }
  if (digits === 0) return false;
  if (k === e) return true;
  if (buf[k] !== 0x65 && buf[k] !== 0x45) return false; // e E
  k++;
  if (k < e && (buf[k] === PLUS || buf[k] === MINUS)) k++;
  let exp = 0;
  for (; k < e && buf[k] >= 0x30 && buf[k] <= 0x39; k++) exp++;
  return exp > 0 && k === e;
}
