/**
 * How many threads each DuckDB instance the project opens may use: CATINTEL_DUCKDB_THREADS, or DuckDB's
 * own default (every core it sees) when unset. A machine shared with other work sets it lower (a cron job
 * beside a server, a container whose CPU quota is below its core count, a test suite that already runs one
 * file per core): the store's everyday queries are small, and their extra threads cost more in waking up
 * than they share. On a busy two-core machine one thread took a fifth less CPU and wall time for the same
 * listing and lookup queries (docs/performance.md, "DuckDB threads").
 */
import { CatintelError } from '../errors.js';

export const DUCKDB_THREADS_ENV = 'CATINTEL_DUCKDB_THREADS';

/** DuckDB's `threads` setting from the environment, or nothing (DuckDB's default). */
export function threadSettings(env: Record<string, string | undefined> = process.env): { threads?: string } {
  const value = env[DUCKDB_THREADS_ENV];
  if (value === undefined || value === '') return {};
  if (!/^[1-9][0-9]{0,3}$/.test(value))
    throw new CatintelError(
      'invalid_parameter',
      `${DUCKDB_THREADS_ENV}=${value}: give a whole number of threads from 1 (or unset it for every core)`,
    );
  return { threads: value };
}
