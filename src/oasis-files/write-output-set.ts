/**
 * Writes `oasis files`' outputs into an OutputSet line by line: each file goes to its temporary name in
 * batches (a large book's items never become one string), and is added to the set when complete. The set's
 * commit then renames them all and writes the manifest last, so a reader sees the whole set or none.
 */
import fs from 'node:fs';
import type { OutputSet } from '../lib/output-set.js';

export interface OutputFile {
  /** The file's name in the set: a plain name, or a folder and a name in it (RI_1/fm_xref.csv). */
  name: string;
  /** The file's lines, header first, produced lazily so a large file is never one string. */
  lines: () => Iterable<string>;
}

const BATCH = 1 << 16;

/** Writes each file at its temporary name and adds it to `set`; returns each file's data rows. */
export function writeOutputFiles(set: OutputSet, files: readonly OutputFile[]): { name: string; rows: number }[] {
  return files.map((f) => {
    const temp = set.tempPath(f.name);
    const fd = fs.openSync(temp, 'w');
    let rows = -1;
    try {
      let batch: string[] = [];
      for (const line of f.lines()) {
        batch.push(line);
        rows++;
        if (batch.length === BATCH) {
          fs.writeSync(fd, batch.join('\n') + '\n');
          batch = [];
        }
      }
      if (batch.length) fs.writeSync(fd, batch.join('\n') + '\n');
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    set.add(f.name, Math.max(rows, 0));
    return { name: f.name, rows: Math.max(rows, 0) };
  });
}
