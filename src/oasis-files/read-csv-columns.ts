/**
 * Reads the named columns of a CSV file as text arrays, streaming it in 4 MiB chunks through the bulk
 * scorer's RFC 4180 scanner (quoted fields, CRLF). Column names match without regard to case or
 * surrounding spaces, as OED's validator reads them. Blank lines are skipped.
 *
 * A column that repeats a few values over its rows (portfolio, currency, peril codes, a book's handful of
 * deductibles) holds one string per distinct value rather than one per row: a million rows of "USD" are
 * one string. A column found to hold many distinct values (numbers, ids) stops being shared.
 */
import fs from 'node:fs';
import { CatintelError } from '../errors.js';
import { CsvScanner, fieldText, isBlank } from '../csv/scanner.js';

const CHUNK = 4 << 20;
/** Distinct values a column may hold and still be shared; above it the column keeps its own strings. */
const SHARED_VALUES = 4096;

export interface TextColumns {
  /** The header as written. */
  header: string[];
  rows: number;
  /** Columns by the caller's spelling; a column absent from the file is absent here. */
  cols: Map<string, string[]>;
}

export function readCsvColumns(file: string, wanted: readonly string[], what: string): TextColumns {
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
  let picks: { name: string; at: number; out: string[]; shared: Map<string, string> | null }[] = [];
  let rows = 0;
  const onRow = (r: Parameters<Parameters<CsvScanner['scan']>[4]>[0]) => {
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
        }))
        .filter((p) => p.at >= 0);
      return;
    }
    for (const p of picks) {
      const text = p.at < r.fieldCount ? fieldText(r, p.at).trim() : '';
      if (p.shared === null) {
        p.out.push(text);
        continue;
      }
      const same = p.shared.get(text);
      if (same !== undefined) {
        p.out.push(same);
        continue;
      }
      p.out.push(text);
      p.shared.set(text, text);
      if (p.shared.size > SHARED_VALUES) p.shared = null;
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
