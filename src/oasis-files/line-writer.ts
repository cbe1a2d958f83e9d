/**
 * A CSV writer that puts cells straight into a byte buffer and writes it to a file descriptor when full:
 * a large book's tens of millions of cells never become strings to join and collect. Integers are
 * written digit by digit; other numbers as JavaScript prints them (`${x}`), so the files read the same
 * as when each line was a template string. Without a file descriptor the bytes are kept in memory.
 */
import fs from 'node:fs';
import type { RowWriter } from './row-writer.js';

const BUFFER_BYTES = 1 << 20;
/** Room kept for one cell: a number prints in at most 24 characters; longer text is checked on its own. */
const CELL_ROOM = 32;
const COMMA = 0x2c;
const NEWLINE = 0x0a;
const ZERO = 0x30;
const MINUS = 0x2d;

export class LineWriter implements RowWriter {
  private readonly buf = Buffer.allocUnsafe(BUFFER_BYTES);
  private at = 0;
  /** The bytes flushed so far, when there is no file to write them to. */
  private readonly kept: Buffer[] = [];

  constructor(private readonly fd?: number) {}

  /** A number cell: integers up to 2^53 digit by digit, any other number as `${x}` prints it. */
  num(x: number): this {
    if (Number.isSafeInteger(x)) return this.int(x);
    return this.text(`${x}`);
  }

  /** A safe integer cell (the caller knows it is one). */
  int(n: number): this {
    if (this.at + CELL_ROOM > this.buf.length) this.flush();
    const buf = this.buf;
    let at = this.at;
    if (n < 0) {
      buf[at++] = MINUS;
      n = -n;
    }
    if (n >= 2 ** 31) {
      // Above 32 bits (rare: ids are smaller): as JavaScript prints it, which for a safe integer is its digits.
      this.at = at;
      return this.text(`${n}`);
    }
    // Digits counted first, then written from the last, in 32-bit arithmetic.
    let v = n | 0;
    let digits = 1;
    for (let t = v; t >= 10; t = (t / 10) | 0) digits++;
    let end = at + digits;
    do {
      const q = (v / 10) | 0;
      buf[--end] = ZERO + v - q * 10;
      v = q;
    } while (v > 0);
    this.at = at + digits;
    return this;
  }

  text(s: string): this {
    const n = s.length;
    if (n > CELL_ROOM) {
      this.room(n * 3);
      this.at += this.buf.write(s, this.at, 'utf8');
      return this;
    }
    this.room(CELL_ROOM * 3);
    // A short cell byte by byte while it is ASCII (ids, codes, numbers): cheaper than a call into the encoder.
    const buf = this.buf;
    const at = this.at;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) {
        this.at = at + this.buf.write(s, at, 'utf8');
        return this;
      }
      buf[at + i] = c;
    }
    this.at = at + n;
    return this;
  }

  comma(): this {
    this.room(1);
    this.buf[this.at++] = COMMA;
    return this;
  }

  /** Ends the line. */
  end(): void {
    this.room(1);
    this.buf[this.at++] = NEWLINE;
  }

  /** A whole line of text. */
  line(s: string): void {
    this.text(s).end();
  }

  flush(): void {
    if (this.fd === undefined) this.kept.push(Buffer.from(this.buf.subarray(0, this.at)));
    else {
      let from = 0;
      while (from < this.at) from += fs.writeSync(this.fd, this.buf, from, this.at - from);
    }
    this.at = 0;
  }

  /** Everything written, when there is no file descriptor (a file's bytes kept in memory). */
  bytes(): Buffer {
    this.flush();
    return Buffer.concat(this.kept);
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    this.flush();
    if (bytes > this.buf.length) throw new RangeError(`a cell of ${bytes} bytes is longer than the write buffer`);
  }
}
