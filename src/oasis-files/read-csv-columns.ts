/**
 * Reads the named columns of a CSV file as text arrays, streaming it in 4 MiB chunks through the bulk
 * scorer's RFC 4180 scanner (quoted fields, CRLF). Column names match without regard to case or
 * surrounding spaces, as OED's validator reads them. Blank lines are skipped.
 *
 * A column that repeats a few values over its rows (portfolio, currency, peril codes, a book's handful of
 * deductibles) holds one string per distinct value rather than one per row: a million rows of "USD" are
 * one string. A column found to hold many distinct values (numbers, ids) stops being shared.
 *
 * A file whose writer kept its columns (written-csv-columns.ts) is read from those while unchanged.
 */
import fs from 'node:fs';
import { CatintelError } from '../errors.js';
import { isAscii } from 'node:buffer';
import { CsvScanner, fieldText, isBlank, type ScannedRow } from '../csv/scanner.js';
import { writtenCsvColumns } from './written-csv-columns.js';

const CHUNK = 4 << 20;
/** Distinct values a column may hold and still be shared; above it the column keeps its own strings. */
const SHARED_VALUES = 4096;
/** Fields this long are copied out of the chunk's string rather than sliced (V8 keeps the chunk for a slice). */
const LONG_FIELD = 13;

/** A column being read: where it is in the row, its values so far and the strings it shares. */
interface Pick {
  name: string;
  at: number;
  out: string[];
  shared: Map<string, string> | null;
  /** The value of the column's last shared row: a run of equal cells reuses it without making a string. */
  last: string | null;
}

export interface TextColumns {
  /** The header as written. */
  header: string[];
  rows: number;
  /** Columns by the caller's spelling; a column absent from the file is absent here. */
  cols: Map<string, string[]>;
}

export function readCsvColumns(file: string, wanted: readonly string[], what: string): TextColumns {
  const written = writtenCsvColumns(file, wanted);
  if (written) return written;
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (e) {
    throw new CatintelError(
      'invalid_parameter',
      `${what}: the file cannot be read (${(e as NodeJS.ErrnoException).code}); give an existing CSV file`,
    );
  }
  const scanner = new CsvScanner(44);
  let header: string[] | null = null;
  let picks: Pick[] = [];
  let rows = 0;
  // The chunk being scanned as one string when it is all ASCII (its UTF-8 and Latin-1 readings agree):
  // a field is then a slice of it, not a decode of its own.
  let chunkText: string | null = null;
  const onRow = (r: ScannedRow) => {
    if (isBlank(r)) return;
    if (header === null) {
      header = Array.from({ length: r.fieldCount }, (_, i) => fieldText(r, i).replace(/^\uFEFF/, ''));
      const lower = header.map((h) => h.trim().toLowerCase());
      picks = wanted
        .map((name) => ({
          name,
          at: lower.indexOf(name.toLowerCase()),
          out: [] as string[],
          shared: new Map<string, string>() as Map<string, string> | null,
          last: null as string | null,
        }))
        .filter((p) => p.at >= 0);
      return;
    }
    for (const p of picks) {
      if (p.last !== null && p.at < r.fieldCount && chunkText !== null && sameAsLast(r, p)) {
        p.out.push(p.last);
        continue;
      }
      const text = p.at < r.fieldCount ? cellText(r, p.at, chunkText) : '';
      if (p.shared === null) {
        p.out.push(text);
        continue;
      }
      const same = p.shared.get(text);
      if (same !== undefined) {
        p.out.push(same);
        p.last = same;
        continue;
      }
      p.out.push(text);
      p.last = text;
      p.shared.set(text, text);
      if (p.shared.size > SHARED_VALUES) {
        p.shared = null;
        p.last = null;
      }
    }
    rows++;
  };
  let buf = Buffer.alloc(CHUNK);
  let len = 0;
  try {
    for (;;) {
      if (len === buf.length) {
        const bigger = Buffer.alloc(buf.length * 2);
        buf.copy(bigger, 0, 0, len);
        buf = bigger;
      }
      const got = fs.readSync(fd, buf, len, buf.length - len, null);
      const final = got === 0;
      len += got;
      chunkText = isAscii(buf.subarray(0, len)) ? buf.toString('latin1', 0, len) : null;
      const used = scanner.scan(buf, 0, len, final, onRow);
      if (final) break;
      buf.copy(buf, 0, used, len);
      len -= used;
    }
  } finally {
    fs.closeSync(fd);
  }
  if (header === null)
    throw new CatintelError('invalid_parameter', `${what}: the file is empty; give a CSV file with a header row`);
  return { header, rows, cols: new Map(picks.map((p) => [p.name, p.out])) };
}

/** Bytes String.prototype.trim removes from an ASCII field. */
function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Whether an ASCII chunk's field is, trimmed, the column's last shared value (no string made to tell). */
function sameAsLast(r: ScannedRow, p: Pick): boolean {
  const i = p.at;
  if (r.quoted[i] === 1) return false;
  const buf = r.buf;
  let s = r.starts[i];
  let e = r.ends[i];
  while (s < e && isAsciiSpace(buf[s])) s++;
  while (e > s && isAsciiSpace(buf[e - 1])) e--;
  const last = p.last!;
  if (last.length !== e - s) return false;
  for (let k = 0; k < last.length; k++) if (last.charCodeAt(k) !== buf[s + k]) return false;
  return true;
}

/**
 * A field's text, trimmed. In an ASCII chunk an unquoted field's trimmed bytes are sliced out of the
 * chunk's string (copied when long, so no value keeps the chunk alive) rather than decoded on their own.
 */
function cellText(r: ScannedRow, i: number, chunkText: string | null): string {
  if (chunkText === null || r.quoted[i] === 1) return fieldText(r, i).trim();
  const buf = r.buf;
  let s = r.starts[i];
  let e = r.ends[i];
  while (s < e && isAsciiSpace(buf[s])) s++;
  while (e > s && isAsciiSpace(buf[e - 1])) e--;
  return e - s < LONG_FIELD ? chunkText.slice(s, e) : buf.toString('latin1', s, e);
}
