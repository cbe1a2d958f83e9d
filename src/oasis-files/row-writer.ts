/**
 * What `oasis files`' writers put their rows through, cell by cell: a file's bytes (LineWriter) or, for
 * a caller that reads the files next, the columns reading those bytes would give (ColumnWriter). One
 * writer per file drives both, so the two cannot say different things.
 */
export interface RowWriter {
  /** A number cell: integers up to 2^53 digit by digit, any other number as `${x}` prints it. */
  num(x: number): this;
  /** A safe integer cell (the caller knows it is one). */
  int(n: number): this;
  text(s: string): this;
  comma(): this;
  /** Ends the line. */
  end(): void;
  /** A whole line of text. */
  line(s: string): void;
}
