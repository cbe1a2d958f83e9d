/** The installed DuckDB's version ("v1.5.5") and platform ("linux_amd64"): the folders its extensions live under. */
import { DuckDBInstance, version } from '@duckdb/node-api';

async function platformOf(): Promise<string> {
  const instance = await DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    return String((await conn.runAndReadAll('SELECT platform FROM pragma_platform()')).getRows()[0][0]);
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

export const DUCKDB_VERSION = version();
export const DUCKDB_PLATFORM = await platformOf();
