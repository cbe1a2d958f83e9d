/**
 * Numeric CSV tables of the Oasis formats: a header line, then comma-separated numbers. Columns are
 * read by name into Float64Arrays, parsed from the file's bytes (no string per line or cell: a
 * 200 000-item input reads in a small fraction of a second). Errors name the file, the line and the fix.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../../errors.js';

export interface Table {
  file: string;
  rows: number;
  columns: string[];
  col(name: string): Float64Array;
  has(name: string): boolean;
  /** Raw text values of a column (for OED text fields such as LocNumber). */
  text(name: string): string[];
}

const COMMA = 44;
const LF = 10;
const CR = 13;
const MINUS = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/** Where the last numberAt stopped: the comma after its cell, or the line's end. */
let cellEnd = 0;

/**
 * The number of the cell starting at `start` and running to the next comma or to `end` (cellEnd is left
 * there), exactly as Number() reads its text. Plain decimals of at most 15 digits ("12", "-3", "0.7",
 * "250000.0") are read here, as the bytes are scanned: the digits are an exact integer and dividing it
 * by an exact power of ten rounds correctly, as Number does; anything else (exponents, spaces, long digit
 * strings) goes through Number. NaN when it is not a number.
 */
function numberAt(buf: Buffer, start: number, end: number): number {
  let p = start;
  const negative = p < end && buf[p] === MINUS;
  if (negative) p++;
  let value = 0;
  let digits = 0;
  let decimals = -1;
  let plain = true;
  for (; p < end; p++) {
    const c = buf[p];
    if (c >= ZERO && c <= NINE) {
      value = value * 10 + (c - ZERO);
      digits++;
      if (decimals >= 0) decimals++;
    } else if (c === DOT && decimals < 0) decimals = 0;
    else if (c === COMMA) break;
    else plain = false;
  }
  cellEnd = p;
  if (plain && digits > 0 && digits <= 15 && decimals !== 0) {
    const v = decimals > 0 ? value / POW10[decimals] : value;
    return negative ? -v : v;
  }
  return Number(buf.toString('utf8', start, p));
}

/** `bytes`: the file's contents when the caller has read them already. */
export function readTable(file: string, required: string[], bytes?: Buffer): Table {
  let buf: Buffer;
  try {
    buf = bytes ?? fs.readFileSync(file);
  } catch {
    throw new CatintelError(
      'invalid_input',
      `${path.basename(file)} not found in ${path.dirname(file)}; the Oasis model and input directories must hold it`,
    );
  }
  // Line starts and ends (an end excludes the \r of \r\n), empty lines skipped: the lines of split(/\r?\n/).
  let starts = new Int32Array(1024);
  let ends = new Int32Array(1024);
  let count = 0;
  let from = 0;
  const n = buf.length;
  while (from <= n) {
    let to = buf.indexOf(LF, from);
    if (to < 0) to = n;
    const end = to < n && to > from && buf[to - 1] === CR ? to - 1 : to;
    if (end > from) {
      if (count === starts.length) {
        const s2 = new Int32Array(count * 2);
        s2.set(starts);
        starts = s2;
        const e2 = new Int32Array(count * 2);
        e2.set(ends);
        ends = e2;
      }
      starts[count] = from;
      ends[count] = end;
      count++;
    }
    from = to + 1;
  }
  if (count === 0)
    throw new CatintelError('invalid_input', `${file} is empty; it needs a header line (${required.join(',')})`);
  const headerLine = buf.toString('utf8', starts[0], ends[0]);
  const columns = headerLine.split(',').map((c) => c.trim());
  for (const c of required) {
    if (!columns.includes(c))
      throw new CatintelError(
        'invalid_input',
        `${file}: column ${c} is missing (header: ${headerLine}); expected ${required.join(',')}`,
      );
  }
  const rows = count - 1;
  /** Byte range of column j on data row i, or undefined when the row has fewer cells. */
  const cell = (i: number, j: number): [number, number] | undefined => {
    let p = starts[i + 1];
    const end = ends[i + 1];
    for (let k = 0; k < j; k++) {
      const c = buf.indexOf(COMMA, p);
      if (c < 0 || c >= end) return undefined;
      p = c + 1;
    }
    const c = buf.indexOf(COMMA, p);
    return [p, c < 0 || c >= end ? end : c];
  };
  const cache = new Map<string, Float64Array>();
  /**
   * The required columns, read together in one pass over the rows on the first col() of any of them
   * (a million-row vulnerability.csv is scanned once, not once per column), each with its first cell that
   * is not a number, which col() reports as it would reading the column alone.
   */
  let together: Map<string, { values: Float64Array; badRow: number; raw: string }> | undefined;
  const readTogether = () => {
    const names = [...new Set(required)];
    const slot = new Int32Array(columns.length).fill(-1);
    names.forEach((name, k) => {
      const j = columns.indexOf(name);
      if (slot[j] < 0) slot[j] = k;
    });
    const last = Math.max(...names.map((name) => columns.indexOf(name)));
    const out = names.map(() => ({ values: new Float64Array(rows), badRow: -1, raw: '' }));
    const values = out.map((o) => o.values);
    const b = buf;
    const lineStarts = starts;
    const lineEnds = ends;
    for (let i = 0; i < rows; i++) {
      let p = lineStarts[i + 1];
      const end = lineEnds[i + 1];
      for (let j = 0; j <= last; j++) {
        // Past j commas from the line start, up to the next comma or the line end (as col() reads a cell).
        const k = slot[j];
        if (p > end) {
          // The row has fewer cells.
          if (k >= 0) {
            values[k][i] = NaN;
            if (out[k].badRow < 0) out[k].badRow = i;
          }
          continue;
        }
        if (k < 0) {
          while (p < end && b[p] !== COMMA) p++;
          p++;
          continue;
        }
        // The cell's number read as it is found, to the comma that ends it.
        const start = p;
        const v = numberAt(b, p, end);
        p = cellEnd;
        values[k][i] = v;
        if (!Number.isFinite(v) && out[k].badRow < 0) {
          out[k].badRow = i;
          out[k].raw = b.toString('utf8', start, p);
        }
        p++;
      }
    }
    return new Map(names.map((name, k) => [name, out[k]]));
  };
  return {
    file,
    rows,
    columns,
    has: (name) => columns.includes(name),
    text(name) {
      const j = columns.indexOf(name);
      const out: string[] = [];
      for (let i = 0; i < rows; i++) {
        const r = j < 0 ? undefined : cell(i, j);
        out.push(r ? buf.toString('utf8', r[0], r[1]).trim() : '');
      }
      return out;
    },
    col(name) {
      const hit = cache.get(name);
      if (hit) return hit;
      if (required.includes(name) && rows > 0) {
        const c = (together ??= readTogether()).get(name)!;
        if (c.badRow >= 0)
          throw new CatintelError('invalid_input', `${file} line ${c.badRow + 2}: ${name} "${c.raw}" is not a number`);
        cache.set(name, c.values);
        return c.values;
      }
      const j = columns.indexOf(name);
      if (j < 0) throw new CatintelError('invalid_input', `${file}: column ${name} is missing (header: ${headerLine})`);
      const out = new Float64Array(rows);
      for (let i = 0; i < rows; i++) {
        // The cell's bytes: past j commas from the line start, up to the next comma or the line end.
        let p = starts[i + 1];
        const end = ends[i + 1];
        let k = 0;
        while (k < j && p <= end) {
          while (p < end && buf[p] !== COMMA) p++;
          p++;
          k++;
        }
        let v = NaN;
        let q = p;
        if (p <= end) {
          while (q < end && buf[q] !== COMMA) q++;
          v = numberAt(buf, p, q);
        }
        if (!Number.isFinite(v)) {
          const raw = p <= end ? buf.toString('utf8', p, q) : '';
          throw new CatintelError('invalid_input', `${file} line ${i + 2}: ${name} "${raw}" is not a number`);
        }
        out[i] = v;
      }
      cache.set(name, out);
      return out;
    },
  };
}
