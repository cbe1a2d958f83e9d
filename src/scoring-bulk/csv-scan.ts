/**
 * A streaming RFC 4180 row scanner over bytes: it finds rows and field spans without making a string,
 * so a million-row portfolio costs one pass of a byte loop plus the few fields the scorer reads.
 * Quoted fields may hold delimiters, doubled quotes and line breaks; CRLF and LF both end a row.
 * Spans are raw (a quoted field's span includes its quotes): `fieldText` unescapes one when needed, and a
 * writer can copy a raw span into CSV output unchanged.
 *
 * The scanner keeps no state between calls: the caller hands it the bytes it has and gets back where the
 * first incomplete row starts, keeps those bytes and appends the next chunk (see reader.ts).
 */

export const LF = 10;
export const CR = 13;
export const QUOTE = 34;

export interface ScannedRow {
  /** The chunk the spans point into. */
  buf: Buffer;
  /** Field spans [starts[i], ends[i]) for i < min(fieldCount, maxFields). */
  starts: Int32Array;
  ends: Int32Array;
  /** 1 when the field began with a quote (a quoted field); 2 for an unquoted field holding a literal quote. */
  quoted: Uint8Array;
  fieldCount: number;
  /** The row's bytes without its line terminator. */
  rowStart: number;
  rowEnd: number;
  /** Line breaks inside quoted fields of this row (so the caller can keep line numbers). */
  innerLineBreaks: number;
  /**
   * A quote opened a field and did not close on the row's line, and the row is that line alone (slowRow):
   * the quote never closed (mergedFields 0), whole rows would have been inside it (-1), or closing it would
   * have made a row of mergedFields fields (with text after the closing quote, when that is the header's).
   */
  unterminated: boolean;
  mergedFields: number;
  /** Some unquoted field holds a literal quote (quoted[i] = 2): the row cannot be copied as raw bytes. */
  strayQuotes: boolean;
}

export class CsvScanner {
  readonly row: ScannedRow;
  /** The header's field count (0 = unknown): a row read across lines must have it (slowRow). */
  expectFields = 0;
  /** A quoted field longer than this is taken for a stray quote (so a pass never holds more of the file). */
  maxQuotedBytes = 64 << 20;
  /** splitRow stopped at maxQuotedBytes. */
  private overLimit = false;
  /** splitRow saw text right after a closing quote (`"a"b`), which RFC 4180 does not allow. */
  private textAfterClose = false;
  /** splitRow saw a whole line inside quotes with expectFields - 1 delimiters or more: a row, swallowed. */
  private rowInsideQuotes = false;

  /**
   * `fieldLimit` (0 = none) is for a reader that needs only the first fields of a row (the Oasis keys
   * pass): a row without a quote stops being split after `fieldLimit` fields, and the rest of the line
   * is skipped (its end was already found by memchr). Such a row reports fieldCount = fieldLimit + 1, a
   * lower bound, with no span for the rest; rows with a quote are always split in full.
   */
  constructor(readonly delimiter: number, readonly maxFields = 4096, readonly fieldLimit = 0) {
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
    };
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
      const next = this.slowRow(buf, i, to, final);
      if (next < 0) return i; // incomplete quoted row: wait for more bytes
      i = next;
      if (onRow(r) === false) return i;
    }
    return i;
  }

  /**
   * One row that holds a quote (or the last row of the file), with the full state machine. Fills `row` and
   * returns the offset after the row, or -1 if the row does not end before `to` and more input may come.
   *
   * Quotes follow RFC 4180 as Python's csv module and DuckDB read it: a quote opens a quoted field only at
   * the start of a field (spaces before it are allowed: `a, "b, c"`); inside a quoted field a doubled quote
   * is a literal quote; anywhere else (an inch mark, `12" Oak Ave`) a quote is an ordinary character.
   *
   * A quote that opens a field and does not close on its line is the one ambiguity: a line break inside
   * quotes, or a stray quote that swallows the rows after it. With `expectFields` (the header's field count)
   * the row is read across lines only when that gives a row of the right size in which every closing quote
   * ends its field (a stray quote usually closes at the next field's opening quote, with text after it) and
   * no whole line inside the quotes holds a row's worth of delimiters (a swallowed row). Otherwise, or when
   * the quote is never closed (or not within `maxQuotedBytes`), the quote is taken for a stray one: the row
   * is its first line alone, marked `unterminated`, and reading goes on at the next line, so no later row
   * is lost.
   */
  private slowRow(buf: Buffer, from: number, to: number, final: boolean): number {
    const r = this.row;
    let end = this.splitRow(buf, from, to, false);
    if (end < 0) {
      // The input ran out inside the row: wait for more, unless this is the end of the file or a quoted
      // field already runs past the limit.
      if (!final && !this.overLimit) return -1;
      if (r.unterminated && r.innerLineBreaks > 0) return this.lineAlone(buf, from, to, 0);
      if (this.overLimit) return -1; // 64 MiB without a line break: readRows gives up, with a message
      end = to; // the last row of the file (unterminated when its only line leaves a quote open)
    }
    if (r.innerLineBreaks > 0 && this.expectFields > 0) {
      if (this.rowInsideQuotes) return this.lineAlone(buf, from, to, -1);
      if (r.fieldCount !== this.expectFields || this.textAfterClose) return this.lineAlone(buf, from, to, r.fieldCount);
    }
    return end;
  }

  /**
   * The first line of a row whose quote does not close on it, as a row of its own (the open field runs to
   * the line end and is not unquoted). `mergedFields` is the field count the row would have had read across
   * lines (0: the quote never closed; -1: whole rows inside the quotes).
   */
  private lineAlone(buf: Buffer, from: number, to: number, mergedFields: number): number {
    const r = this.row;
    let lf = buf.indexOf(LF, from);
    if (lf < 0 || lf >= to) lf = to;
    this.splitRow(buf, from, lf, true);
    r.innerLineBreaks = 0;
    r.unterminated = true;
    r.mergedFields = mergedFields;
    return lf < to ? lf + 1 : to;
  }

  /**
   * Splits the row starting at `from` into `row`; returns the offset after its line break, or -1 if `to`
   * came first (the fields so far are filled as if the row ended there; unterminated = inside quotes).
   * With `oneLine`, `to` is the line end and an open quote simply runs to it.
   */
  private splitRow(buf: Buffer, from: number, to: number, oneLine: boolean): number {
    const r = this.row;
    const { starts, ends, quoted } = r;
    const max = this.maxFields;
    const delim = this.delimiter;
    const limit = oneLine ? to : Math.min(to, from + this.maxQuotedBytes);
    let fieldStart = from;
    let nf = 0;
    let inQuotes = false;
    let closedAt = -2; // where the last quoted stretch closed: a quote right after it is a doubled quote
    let lead = true; // only spaces so far in this field: a quote here opens a quoted field
    let breaks = 0;
    let stray = false;
    let textAfterClose = false;
    let rowInside = false;
    let lineDelims = 0; // delimiters inside quotes since the last line break inside quotes
    const rowDelims = this.expectFields >= 3 ? this.expectFields - 1 : Infinity;
    quoted[0] = 0;
    let i = from;
    for (; i < limit; i++) {
      const c = buf[i];
      if (inQuotes) {
        if (c === QUOTE) {
          inQuotes = false;
          closedAt = i;
        } else if (c === LF) {
          if (breaks > 0 && lineDelims >= rowDelims) rowInside = true; // the line since the last break: all inside quotes
          breaks++;
          lineDelims = 0;
        } else if (c === delim) lineDelims++;
        continue;
      }
      if (c === delim) {
        if (nf < max) {
          starts[nf] = fieldStart;
          ends[nf] = i;
        }
        nf++;
        fieldStart = i + 1;
        lead = true;
        if (nf < max) quoted[nf] = 0;
      } else if (c === LF) {
        const end = i > from && buf[i - 1] === CR ? i - 1 : i;
        this.finishRow(from, fieldStart, end, nf, breaks, false, stray);
        this.textAfterClose = textAfterClose;
        this.rowInsideQuotes = rowInside;
        return i + 1;
      } else if (c === QUOTE) {
        if (closedAt === i - 1 || lead) {
          inQuotes = true;
          if (lead && nf < max) quoted[nf] = 1;
          lead = false;
        } else {
          // A literal quote in an unquoted field: writers must quote the field to copy it (copyField).
          if (nf < max && quoted[nf] === 0) quoted[nf] = 2;
          stray = true;
        }
      } else {
        if (lead && c !== 0x20) lead = false;
        if (closedAt === i - 1 && c !== CR) textAfterClose = true;
      }
    }
    this.overLimit = i < to;
    this.textAfterClose = textAfterClose;
    this.rowInsideQuotes = rowInside;
    const end = i > from && buf[i - 1] === CR ? i - 1 : i;
    this.finishRow(from, fieldStart, end, nf, breaks, inQuotes, stray);
    if (inQuotes && nf < max) quoted[nf] = 2; // a quote never closed: the field as written
    return oneLine ? to : -1;
  }

  private finishRow(from: number, fieldStart: number, end: number, nf: number, breaks: number, unterminated: boolean, stray: boolean): void {
    const r = this.row;
    if (nf < this.maxFields) {
      r.starts[nf] = fieldStart;
      r.ends[nf] = end;
    }
    r.fieldCount = nf + 1;
    r.rowStart = from;
    r.rowEnd = end;
    r.innerLineBreaks = breaks;
    r.unterminated = unterminated;
    r.strayQuotes = stray;
    r.mergedFields = 0;
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
