/**
 * Reading an output set as the kill trials check it (src/lib/output-set.ts): the manifest written last,
 * and the files it names as they are on disk. A directory holds one finished run's set exactly when the
 * files on disk give the manifest's own list.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface SetManifest {
  run: string;
  outputs: { file: string; rows: number; bytes: number; sha256: string }[];
}

export const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

export function readManifest<M extends SetManifest = SetManifest>(dir: string): M | null {
  const file = path.join(dir, 'manifest.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : null;
}

/** The set as the manifest lists it: name, rows, bytes and checksum of each file. */
export const setOf = (m: SetManifest) => m.outputs.map((o) => `${o.file}:${o.rows}:${o.bytes}:${o.sha256}`).sort();

/** The same list from the files on disk (rows as the manifest says): equal to setOf(m) when none was changed. */
export const setOnDisk = (dir: string, m: SetManifest) =>
  m.outputs
    .map((o) => {
      const file = path.join(dir, o.file);
      return `${o.file}:${o.rows}:${fs.statSync(file).size}:${sha256(file)}`;
    })
    .sort();
