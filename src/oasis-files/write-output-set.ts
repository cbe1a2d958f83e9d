/**
 * Writes `oasis files`' outputs into an OutputSet: each file goes to its temporary name through a
 * LineWriter (a large book's rows never become strings), and is added to the set when complete. The
 * set's commit then renames them all and writes the manifest last, so a reader sees the whole set or none.
 */
import fs from 'node:fs';
import type { OutputSet } from '../lib/output-set.js';
import { LineWriter } from './line-writer.js';
import type { RowWriter } from './row-writer.js';

export interface OutputFile {
  /** The file's name in the set: a plain name, or a folder and a name in it (RI_1/fm_xref.csv). */
  name: string;
  header: string;
  /** Writes the data rows, one line each; returns how many. */
  writeRows: (out: RowWriter) => number;
}

/** Writes each file at its temporary name and adds it to `set`; returns each file's data rows. */
export function writeOutputFiles(set: OutputSet, files: readonly OutputFile[]): { name: string; rows: number }[] {
  return files.map((f) => {
    const fd = fs.openSync(set.tempPath(f.name), 'w');
    let rows: number;
    try {
      const out = new LineWriter(fd);
      out.line(f.header);
      rows = f.writeRows(out);
      out.flush();
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    set.add(f.name, rows);
    return { name: f.name, rows };
  });
}
