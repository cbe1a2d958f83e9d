/**
 * Cutting a bulk input into row ranges that separate processes can score (`catintel score --queue`,
 * docs/scale-out.md). A cut must fall where a pass over the whole file starts a row, and a quoted field may
 * hold line breaks (or a stray quote may make the scanner read a line alone), so the cuts come from one pass
 * of the same scanner over the whole file (src/csv/read-rows.ts), not from looking for a line break near a
 * byte offset. The pass splits no field (fieldLimit 1) and is a fraction of the scoring's time.
 *
 * Each range carries the row and line numbers its first row has in the whole file, so the scores and
 * errors.csv of the ranges, put end to end, are those of one run over the whole file.
 */
import { readRows } from '../csv/read-rows.js';
import type { InputHeader } from '../csv/header.js';

export interface RowRange {
  /** File offset of the range's first row. */
  start: number;
  /** File offset of the row after the range (undefined: to the end of the file). */
  end?: number;
  /** Data rows (blank lines are not rows) before the range. */
  rowsBefore: number;
  /** The physical line the range starts on (1-based, the header's lines counted). */
  firstLine: number;
}

/** Up to `n` ranges of about equal bytes; fewer when the file has fewer rows. */
export async function rowRanges(header: InputHeader, n: number, signal?: AbortSignal): Promise<RowRange[]> {
  const span = header.sizeBytes - header.dataStart;
  const targets = Array.from({ length: n - 1 }, (_, k) => header.dataStart + Math.ceil((span * (k + 1)) / n));
  const ranges: RowRange[] = [{ start: header.dataStart, rowsBefore: 0, firstLine: header.headerLines + 1 }];
  let rows = 0;
  let line = header.headerLines + 1;
  let next = 0;
  await readRows(
    {
      file: header.file,
      dataStart: header.dataStart,
      delimiter: header.delimiter,
      expectFields: header.columns.length,
      fieldLimit: 1,
      signal,
    },
    (r) => {
      const at = r.bufFileOffset + r.rowStart;
      // A cut lands on the first row at or after its target (a cut no row reaches is dropped).
      if (next < targets.length && at >= targets[next] && at > ranges[ranges.length - 1].start) {
        ranges[ranges.length - 1].end = at;
        ranges.push({ start: at, rowsBefore: rows, firstLine: line });
        while (next < targets.length && targets[next] <= at) next++;
      }
      // As the scoring counts them (run.ts): a blank line is a line, not a row.
      if (!(r.fieldCount === 1 && r.rowEnd === r.rowStart)) rows++;
      line += 1 + r.innerLineBreaks;
    },
  );
  return ranges;
}
