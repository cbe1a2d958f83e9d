/**
 * Reading a CSV file's rows in chunks into the scanner, the same way for every pass over one input (the bulk
 * scoring's main pass and its Oasis keys pass, a portfolio import), so that they agree on every row.
 * What a row is to the scoring is src/scoring-bulk/row-verdict.ts.
 */
import { isUtf8 } from 'node:buffer';
import fs from 'node:fs';
import { CatintelError } from '../errors.js';
import { CsvScanner, type ScannedRow } from './scanner.js';
import { completeUtf8Prefix } from '../lib/utf8.js';

export const CHUNK_BYTES = 4 << 20;
/**
 * A quoted field longer than this is taken for a stray quote (the scanner then reads its row as one line);
 * a line longer than this without a quote is not CSV, and the run stops.
 */
const MAX_ROW_BYTES = 64 << 20;

export interface ReadOptions {
  file: string;
  dataStart: number;
  /**
   * Stop before the row that starts at this file offset (a row boundary an earlier pass over the same file
   * found: src/scoring-bulk/row-ranges.ts). Rows are read past it as far as the scanner needs to decide the
   * rows before it, so a range reads exactly the rows a pass over the whole file reads there.
   */
  dataEnd?: number;
  delimiter: number;
  chunkBytes?: number;
  signal?: AbortSignal;
  /** After each chunk's rows: write out, report progress (bytes consumed so far). */
  afterChunk?: (bytesDone: number) => Promise<void>;
  /** Split only the first this many fields of a row without quotes (CsvScanner fieldLimit). */
  fieldLimit?: number;
  /**
   * The header's field count: a quote that does not close on its line is read across lines only when that
   * makes a row of this size (CsvScanner expectFields). Every pass over one input must give the same value,
   * so that they agree on the rows.
   */
  expectFields: number;
  /** For the "runs past 64 MiB" message. */
  rowNumber?: () => number;
}

/** Calls onRow for every row (blank ones too) of the file after its header, chunk by chunk. */
export async function readRows(o: ReadOptions, onRow: (r: ScannedRow) => void): Promise<void> {
  const scanner = new CsvScanner(o.delimiter, undefined, o.fieldLimit ?? 0);
  scanner.quotes.expectFields = o.expectFields;
  scanner.quotes.maxQuotedBytes = MAX_ROW_BYTES;
  const chunk = o.chunkBytes ?? CHUNK_BYTES;
  const end = o.dataEnd;
  let stopped = false;
  // Only a range pays for the offset check: a whole-file pass hands rows straight to onRow.
  const deliver =
    end === undefined
      ? onRow
      : (r: ScannedRow) => {
          if (r.bufFileOffset + r.rowStart >= end) {
            stopped = true;
            return false;
          }
          onRow(r);
        };
  const fh = await fs.promises.open(o.file, 'r');
  // The next chunk is read into `ahead` while this one is scanned, so the pass does not wait on reads.
  const ahead = Buffer.allocUnsafe(chunk);
  let next = fh.read(ahead, 0, chunk, o.dataStart);
  try {
    let buf = Buffer.allocUnsafe(chunk * 2);
    let len = 0;
    let filePos = o.dataStart;
    for (;;) {
      if (o.signal?.aborted)
        throw new CatintelError('unavailable', 'bulk scoring was interrupted; nothing was written');
      if (buf.length - len < chunk) {
        if (len >= MAX_ROW_BYTES + chunk) {
          const row = o.rowNumber ? ` ${o.rowNumber() + 1}` : '';
          throw new CatintelError(
            'invalid_input',
            `${o.file}: row${row} runs past ${MAX_ROW_BYTES >> 20} MiB without a line break; is it a CSV file?`,
          );
        }
        const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, len + chunk));
        buf.copy(bigger, 0, 0, len);
        buf = bigger;
      }
      const { bytesRead } = await next;
      ahead.copy(buf, len, 0, bytesRead);
      filePos += bytesRead;
      len += bytesRead;
      const eof = bytesRead === 0;
      if (!eof) next = fh.read(ahead, 0, chunk, filePos);
      // One check of the whole stretch for the common all-UTF-8 file; rows are checked one by one
      // (utf8-row.ts) only in a stretch that fails it.
      scanner.row.bufFileOffset = filePos - len;
      scanner.row.mayHoldInvalidUtf8 = !isUtf8(buf.subarray(0, eof ? len : completeUtf8Prefix(buf, len)));
      const consumed = scanner.scan(buf, 0, len, eof, deliver);
      if (consumed > 0) {
        buf.copy(buf, 0, consumed, len);
        len -= consumed;
      }
      await o.afterChunk?.(filePos - len);
      if (eof || stopped) break;
    }
  } finally {
    await next.catch(() => undefined);
    await fh.close();
  }
}
