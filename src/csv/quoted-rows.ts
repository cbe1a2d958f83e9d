/**
 * Rows that hold a quote, for the CSV scanner (scanner.ts): the full RFC 4180 state machine, and what to
 * do with a quote that does not close on its line. Only rows with a quote come here; the scanner's fast
 * path takes every other row.
 */
import { CR, LF, QUOTE, type ScannedRow } from './scanned-row.js';

export class QuotedRowSplitter {
  /** The header's field count (0 = unknown): a row read across lines must have it (row()). */
  expectFields = 0;
  /** A quoted field longer than this is taken for a stray quote (so a pass never holds more of the file). */
  maxQuotedBytes = 64 << 20;
  /** splitRow stopped at maxQuotedBytes. */
  private overLimit = false;
  /** splitRow saw text right after a closing quote (`"a"b`), which RFC 4180 does not allow. */
  private textAfterClose = false;
  /** splitRow saw a whole line inside quotes with expectFields - 1 delimiters or more: a row, swallowed. */
  private rowInsideQuotes = false;

  constructor(
    private readonly r: ScannedRow,
    private readonly delimiter: number,
    private readonly maxFields: number,
  ) {}

  /**
   * One row that holds a quote (or the last row of the file), with the full state machine. Fills the row and
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
  row(buf: Buffer, from: number, to: number, final: boolean): number {
    const r = this.r;
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
    const r = this.r;
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
    const r = this.r;
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

  private finishRow(
    from: number,
    fieldStart: number,
    end: number,
    nf: number,
    breaks: number,
    unterminated: boolean,
    stray: boolean,
  ): void {
    const r = this.r;
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
