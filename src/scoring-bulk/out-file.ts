/**
 * One output file of a bulk run, written under a temporary name in the output directory and renamed to
 * its final name only when the whole run succeeded (so a failed or interrupted run leaves no
 * half-written output). Bytes accumulate in large buffers while a chunk of input is processed
 * synchronously; `drain()` hands them to the OS in one writev between chunks.
 */
import fs from 'node:fs';
import path from 'node:path';

const BLOCK = 1 << 20;

export class OutFile {
  rows = 0;
  private done: Buffer[] = [];
  private cur = Buffer.allocUnsafe(BLOCK);
  private len = 0;

  private constructor(
    readonly finalPath: string,
    readonly tempPath: string,
    private readonly fh: fs.promises.FileHandle,
  ) {}

  static async create(dir: string, name: string, token: string): Promise<OutFile> {
    const tempPath = path.join(dir, `.${name}.${token}.tmp`);
    const fh = await fs.promises.open(tempPath, 'w');
    return new OutFile(path.join(dir, name), tempPath, fh);
  }

  private room(n: number): void {
    if (this.len + n <= this.cur.length) return;
    if (this.len > 0) this.done.push(this.cur.subarray(0, this.len));
    this.cur = Buffer.allocUnsafe(Math.max(BLOCK, n));
    this.len = 0;
  }

  /** Copies src[start, end). */
  bytes(src: Buffer, start: number, end: number): void {
    this.room(end - start);
    this.len += src.copy(this.cur, this.len, start, end);
  }

  buffer(src: Buffer): void {
    this.room(src.length);
    this.len += src.copy(this.cur, this.len);
  }

  byte(c: number): void {
    this.room(1);
    this.cur[this.len++] = c;
  }

  /** ASCII/Latin-1 text (numbers, codes, fixed strings). */
  latin1(s: string): void {
    this.room(s.length);
    this.len += this.cur.latin1Write(s, this.len);
  }

  utf8(s: string): void {
    const n = Buffer.byteLength(s);
    this.room(n);
    this.len += this.cur.utf8Write(s, this.len, n);
  }

  /** An integer in decimal, without making a string. */
  int(n: number): void {
    this.room(24);
    if (n < 0) {
      this.cur[this.len++] = 45;
      n = -n;
    }
    if (n === 0) {
      this.cur[this.len++] = 48;
      return;
    }
    let digits = 0;
    for (let x = n; x > 0; x = Math.floor(x / 10)) digits++;
    let at = this.len + digits;
    for (let x = n; x > 0; x = Math.floor(x / 10)) this.cur[--at] = 48 + (x % 10);
    this.len += digits;
  }

  /** Writes what has accumulated. Call between chunks; the run awaits it, so memory stays bounded. */
  async drain(): Promise<void> {
    if (this.len > 0) {
      this.done.push(this.cur.subarray(0, this.len));
      this.cur = Buffer.allocUnsafe(BLOCK);
      this.len = 0;
    }
    if (this.done.length === 0) return;
    const bufs = this.done;
    this.done = [];
    await this.fh.writev(bufs);
  }

  async close(): Promise<void> {
    await this.drain();
    await this.fh.close();
  }

  async commit(): Promise<void> {
    await fs.promises.rename(this.tempPath, this.finalPath);
  }

  async discard(): Promise<void> {
    await this.fh.close().catch(() => undefined);
    await fs.promises.rm(this.tempPath, { force: true });
  }
}
