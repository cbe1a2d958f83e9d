/**
 * The check of a --db path, apart from the store itself so that a command can make it without loading
 * DuckDB (src/cli/execute.ts). src/store/db.ts re-exports it.
 */
import fs from 'node:fs';
import { CatintelError } from '../errors.js';

/**
 * Data files DuckDB opens as a database of their own: given an existing CSV, TSV, JSON or Parquet file
 * (compressed too), DuckDB 1.5 answers with a throwaway in-memory database holding one view of the file,
 * so every write "succeeds" and is lost on exit. Checked by trying it: `.csv`, `.tsv`, `.json`, `.jsonl`,
 * `.ndjson`, `.parquet` and their `.gz` forms open that way; `.txt`, `.geojson`, `.xlsx` are refused by
 * DuckDB itself (caught below by the header check).
 */
const DATA_FILE_RE = /\.(csv|tsv|json|jsonl|ndjson|parquet)(\.(gz|zst))?$/i;
/** Bytes 8-11 of every DuckDB database file (the storage header's magic number). */
const DUCKDB_MAGIC = 'DUCK';

/**
 * Refuses a store path that would not hold the store: an in-memory or remote name (`:memory:`, ``,
 * `md:...`, `s3://...`), a data file name (DATA_FILE_RE, even before it exists: the same --db would
 * mean a database today and a CSV view tomorrow), a directory, and an existing file that is not a
 * DuckDB database (DuckDB refuses most of these itself, but with a message that names no fix).
 */
export function assertStorePath(path: string): void {
  const fix = 'pass --db with a DuckDB file such as ./catintel.duckdb (created on first use)';
  const refuse = (why: string) =>
    new CatintelError('invalid_parameter', `--db ${JSON.stringify(path)} ${why}; ${fix}`, {
      errors: [{ field: 'db', message: why }],
    });
  if (path.trim() === '' || path.startsWith(':memory:') || /^[a-z][a-z0-9+.-]+:/i.test(path)) {
    throw refuse('is not a file path: DuckDB would keep the store in memory or remotely, and nothing would be saved');
  }
  if (DATA_FILE_RE.test(path))
    throw refuse(
      'names a data file (CSV, JSON, Parquet ...), not a store; DuckDB would open an existing one as a read-only view and save nothing',
    );
  let stat: fs.Stats;
  try {
    stat = fs.statSync(path);
  } catch {
    return; // a new file: DuckDB creates it (a missing directory is reported by the open itself)
  }
  if (stat.isDirectory()) throw refuse('is a directory');
  const head = Buffer.alloc(12);
  let read: number;
  try {
    const fd = fs.openSync(path, 'r');
    try {
      read = fs.readSync(fd, head, 0, 12, 0);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    throw refuse(`cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (read < 12 || head.toString('latin1', 8, 12) !== DUCKDB_MAGIC) throw refuse('exists but is not a DuckDB database');
}
