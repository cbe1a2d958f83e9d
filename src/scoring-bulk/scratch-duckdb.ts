/**
 * A private, in-memory DuckDB for the set-based steps of a bulk run (ranking LocIDs, writing keys,
 * converting to Parquet). It is not the store: it holds nothing between runs and never touches the
 * store file. Its memory is capped and it spills to a temporary directory inside the output directory,
 * so a large portfolio costs disk, not RAM. Loaded lazily: `catintel --help` never pays for it.
 *
 * File paths cannot be bound parameters in read_csv()/COPY; they are written as SQL string literals with
 * quotes doubled (sqlPath). Nothing else from the input reaches SQL text.
 */
import fs from 'node:fs';
import path from 'node:path';
import { threadSettings } from '../store/duckdb-threads.js';

export const DUCK_MEMORY_LIMIT = '512MB';

export interface Duck {
  /** Runs one statement; returns the first column of the first row as a number (COPY's row count), or 0. */
  run(sql: string): Promise<number>;
}

export function sqlPath(p: string): string {
  return `'${p.replaceAll("'", "''")}'`;
}

export interface DuckOptions {
  /** Load DuckDB's spatial extension from this directory first (src/store/extensions.ts): for COPY ... (FORMAT GDAL). */
  spatialFrom?: string;
}

export async function withDuck<T>(
  tmpParent: string,
  token: string,
  fn: (d: Duck) => Promise<T>,
  opts: DuckOptions = {},
): Promise<T> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const spatial = opts.spatialFrom === undefined ? undefined : await import('../store/extensions.js');
  const spill = path.join(tmpParent, `.duckdb-spill.${token}.tmp`);
  const extensions = spatial ? spatial.extensionSettings(opts.spatialFrom!) : {};
  const instance = await DuckDBInstance.create(':memory:', {
    memory_limit: DUCK_MEMORY_LIMIT,
    temp_directory: spill,
    ...extensions,
    ...threadSettings(),
  });
  const conn = await instance.connect();
  try {
    if (spatial) await spatial.loadSpatial(conn, opts.spatialFrom!);
    return await fn({
      async run(sql) {
        const reader = await conn.runAndReadAll(sql);
        const rows = reader.getRows();
        const v = rows[0]?.[0];
        return typeof v === 'bigint' || typeof v === 'number' ? Number(v) : 0;
      },
    });
  } finally {
    conn.closeSync();
    instance.closeSync();
    await fs.promises.rm(spill, { recursive: true, force: true });
  }
}
