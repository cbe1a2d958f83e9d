/**
 * A new store file, created atomically (src/store/db.ts calls it before opening a path that does not exist).
 */
import fs from 'node:fs';
import path from 'node:path';
import { processAlive } from '../lib/process-alive.js';

/** `<db>.creating-<pid>`: a store being created, linked to its real name only once complete. */
const CREATING_RE = /\.creating-(\d+)(\.wal)?$/;

/**
 * Creates the store file at `dbPath` with every migration applied, atomically: the schema is built in
 * `<db>.creating-<pid>`, checkpointed (no WAL left beside it) and hard-linked to `dbPath`, which fails
 * if another process created the store meanwhile (that store is then used). A kill at any moment
 * leaves no file at `dbPath` or a complete one; the leftovers of killed creations are removed here.
 * `buildSchemaAt` (the store's own, passed in by db.ts) builds the schema in a file and answers false when
 * DuckDB cannot create it there.
 */
export async function createAtomically(
  dbPath: string,
  buildSchemaAt: (file: string) => Promise<boolean>,
): Promise<void> {
  const dir = path.dirname(dbPath);
  const base = path.basename(dbPath);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return; // a missing directory is reported by the open itself, with its usual message
  }
  for (const name of names) {
    const m = name.startsWith(`${base}.creating-`) ? CREATING_RE.exec(name) : null;
    if (m && Number(m[1]) !== process.pid && !processAlive(Number(m[1])))
      fs.rmSync(path.join(dir, name), { force: true });
  }
  const temp = `${dbPath}.creating-${process.pid}`;
  const removeTemp = () => {
    fs.rmSync(temp, { force: true });
    fs.rmSync(`${temp}.wal`, { force: true });
  };
  removeTemp();
  try {
    if (!(await buildSchemaAt(temp))) return; // the real open reports why the place cannot hold a store
    try {
      fs.linkSync(temp, dbPath);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  } finally {
    removeTemp();
  }
}
