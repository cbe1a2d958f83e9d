/** The row a CSV scan fills (scanner.ts) and the bytes it looks for. */
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
   * A quote opened a field and did not close on the row's line, and the row is that line alone (quoted-rows.ts):
   * the quote never closed (mergedFields 0), whole rows would have been inside it (-1), or closing it would
   * have made a row of mergedFields fields (with text after the closing quote, when that is the header's).
   */
  unterminated: boolean;
  mergedFields: number;
  /** Some unquoted field holds a literal quote (quoted[i] = 2): the row cannot be copied as raw bytes. */
  strayQuotes: boolean;
  /**
   * False when the reader checked the whole chunk the row lies in and found it UTF-8 (read-rows.ts),
   * so no row of it needs its own check; true means a row must be checked (utf8-row.ts).
   */
  mayHoldInvalidUtf8: boolean;
  /** The file offset of buf[0], so a bad byte can be named by its place in the file. */
  bufFileOffset: number;
}
