/**
 * Writes a set of output files so that a reader never sees part of a set: each file goes to a temporary
 * name in the output directory, and all are renamed to their final names only after the last one is
 * complete. One small function, so the set's manifest can be added in one place.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

export interface OutputFile {
  name: string;
  /** The file's lines, header first, produced lazily so a large file is never one string. */
  lines: () => Iterable<string>;
}

const BATCH = 1 << 16;

export function writeOutputSet(dir: string, files: readonly OutputFile[]): { name: string; rows: number }[] {
  fs.mkdirSync(dir, { recursive: true });
  const token = crypto.randomBytes(4).toString('hex');
  const written: { name: string; temp: string; rows: number }[] = [];
  try {
    for (const f of files) {
      const temp = path.join(dir, `.${f.name}.${token}.tmp`);
      const fd = fs.openSync(temp, 'w');
      written.push({ name: f.name, temp, rows: 0 });
      let batch: string[] = [];
      let rows = -1;
      try {
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
      written[written.length - 1].rows = Math.max(rows, 0);
    }
  } catch (e) {
    for (const w of written) fs.rmSync(w.temp, { force: true });
    throw e;
  }
  for (const w of written) fs.renameSync(w.temp, path.join(dir, w.name));
  return written.map((w) => ({ name: w.name, rows: w.rows }));
}
