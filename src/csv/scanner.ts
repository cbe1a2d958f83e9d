/**
 * A streaming RFC 4180 row scanner over bytes: it finds rows and field spans without making a string,
 * so a million-row portfolio costs one pass of a byte loop plus the few fields the scorer reads.
 * Quoted fields may hold delimiters, doubled quotes and line breaks; CRLF and LF both end a row.
 * Spans are raw (a quoted field's span includes its quotes): `fieldText` unescapes one when needed, and a
 * writer can copy a raw span into CSV output unchanged.
 *
 * The scanner keeps no state between calls: the caller hands it the bytes it has and gets back where the
 * first incomplete row starts, keeps those bytes and appends the next chunk (see read-rows.ts).
 */
import { QuotedRowSplitter } from './quoted-rows.js';
import { CR, LF, QUOTE, type ScannedRow } from './scanned-row.js';

export { LF, QUOTE, type ScannedRow } from './scanned-row.js';

export class CsvScanner {
  readonly row: ScannedRow;
  /** Rows that hold a quote: the full state machine, and the stray-quote rules (quoted-rows.ts). */
  readonly quotes: QuotedRowSplitter;

  /**
   * `fieldLimit` (0 = none) is for a reader that needs only the first fields of a row (the Oasis keys
   * pass): a row without a quote stops being split after `fieldLimit` fields, and the rest of the line
   * is skipped (its end was already found by memchr). Such a row reports fieldCount = fieldLimit + 1, a
   * lower bound, with no span for the rest; rows with a quote are always split in full.
   */
  constructor(
    readonly delimiter: number,
    readonly maxFields = 4096,
    readonly fieldLimit = 0,
  ) {
    this.row = {
      buf: Buffer.alloc(0),
      starts: new Int32Array(maxFields),
      ends: new Int32Array(maxFields),
      quoted: new Uint8Array(maxFields),
      fieldCount: 0,
      rowStart: 0,
      rowEnd: 0,
      innerLineBreaks: 0,
      unterminated: false,
      mergedFields: 0,
      strayQuotes: false,
      mayHoldInvalidUtf8: true,
      bufFileOffset: 0,
    };
    this.quotes = new QuotedRowSplitter(this.row, delimiter, maxFields);
  }

  /**
   * Calls onRow for every complete row in buf[from, to). With `final`, the bytes after the last line break
   * form a last row too (marked unterminated if a quote was left open). Returns the offset of the first
   * byte not consumed. onRow may return false to stop early (the header pass).
   */
  scan(buf: Buffer, from: number, to: number, final: boolean, onRow: (r: ScannedRow) => boolean | void): number {
    const r = this.row;
    r.buf = buf;
    const starts = r.starts;
    const ends = r.ends;
    const quoted = r.quoted;
    const max = this.maxFields;
    const delim = this.delimiter;
    const limit = this.fieldLimit;
    let i = from;
    // The next quote at or after i (to = none): rows before it take the fast path, a memchr for the line
    // end and a loop that looks for delimiters only.
    let nextQuote = -1;
    while (i < to) {
      if (nextQuote < i) {
        nextQuote = buf.indexOf(QUOTE, i);
        if (nextQuote < 0 || nextQuote >= to) nextQuote = to;
      }
      let lineEnd = buf.indexOf(LF, i);
      if (lineEnd >= to) lineEnd = -1;
      if (lineEnd >= 0 && lineEnd < nextQuote) {
        const end = lineEnd > i && buf[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
        let nf = 0;
        let fieldStart = i;
        for (let k = i; k < end; k++) {
          if (buf[k] === delim) {
            if (nf < max) {
              starts[nf] = fieldStart;
              ends[nf] = k;
              quoted[nf] = 0;
            }
            nf++;
            fieldStart = k + 1;
            if (nf === limit) break; // never true without a limit (nf >= 1 here)
          }
        }
        if (limit > 0 && nf === limit) {
          // Stopped early: the first `limit` fields are split, the rest of the line is not looked at.
        } else if (nf < max) {
          starts[nf] = fieldStart;
          ends[nf] = end;
          quoted[nf] = 0;
        }
        r.fieldCount = nf + 1;
        r.rowStart = i;
        r.rowEnd = end;
        r.innerLineBreaks = 0;
        r.unterminated = false;
        r.strayQuotes = false;
        i = lineEnd + 1;
        if (onRow(r) === false) return i;
        continue;
      }
      if (lineEnd < 0 && nextQuote >= to) {
        // No line end and no quote left: the rest is an incomplete row (or the last row of the file).
        if (!final) return i;
      }
      const next = this.quotes.row(buf, i, to, final);
      if (next < 0) return i; // incomplete quoted row: wait for more bytes
      i = next;
      if (onRow(r) === false) return i;
    }
    return i;
  }
}

/** A field's text: quotes removed and doubled quotes collapsed for a quoted field; UTF-8. */
export function fieldText(r: ScannedRow, i: number): string {
  const s = r.starts[i];
  const e = r.ends[i];
  if (r.quoted[i] !== 1) return r.buf.toString('utf8', s, e);
  // Lax writers put spaces around the quotes (`a, "b" ,c`): keep what is inside the outermost quotes.
  let open = s;
  while (open < e && r.buf[open] !== QUOTE) open++;
  let close = e - 1;
  while (close > open && r.buf[close] !== QUOTE) close--;
  return r.buf.toString('utf8', open + 1, close > open ? close : e).replaceAll('""', '"');
}

/** True when a row is empty (a blank line). */
export function isBlank(r: ScannedRow): boolean {
  return r.fieldCount === 1 && r.rowEnd === r.rowStart;
}

/** A JS string as one CSV field: quoted when it holds a comma, quote, CR or LF. */
export function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}
