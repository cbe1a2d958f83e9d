/**
 * ORD tables as Parquet files, through an in-memory DuckDB: each table's rows go into a DuckDB table of
 * the same columns (INTEGER for Oasis's int32, FLOAT for its float32) by the appender, in row order, and
 * COPY writes that table out. DuckDB is loaded only when a run asks for Parquet.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlPath } from '../../scoring-bulk/scratch-duckdb.js';
import type { OrdTable } from '../domain/ord-table.js';

/** A table to write, or (summary-info, whose columns are not Oasis's int32/float32) a query of constants. */
export type ParquetTarget = { file: string; table: OrdTable } | { file: string; select: string };

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** DuckDB's vector size: the most rows one data chunk holds. */
const CHUNK_ROWS = 2048;

async function writeTable(conn: DuckDBConnection, n: number, file: string, table: OrdTable): Promise<void> {
  const { DuckDBDataChunk, FLOAT, INTEGER } = await import('@duckdb/node-api');
  const name = `ord_${n}`;
  const w = table.columns.length;
  const types = table.columns.map((c) => (c.type === 'int32' ? INTEGER : FLOAT));
  await conn.run(
    `CREATE TEMP TABLE ${name} (${table.columns.map((c, i) => `${quoted(c.name)} ${types[i].toString()}`).join(', ')})`,
  );
  const appender = await conn.createAppender(name, 'main', 'temp');
  try {
    // Column by column, a chunk at a time: several times faster than appending value by value.
    const v = table.values;
    const rows = v.length / w;
    for (let first = 0; first < rows; first += CHUNK_ROWS) {
      const count = Math.min(CHUNK_ROWS, rows - first);
      const columns = types.map((_, c) => {
        const col = new Array<number>(count);
        for (let r = 0; r < count; r++) col[r] = v[(first + r) * w + c];
        return col;
      });
      const chunk = DuckDBDataChunk.create(types, count);
      chunk.setColumns(columns);
      appender.appendDataChunk(chunk);
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  // Insertion order is kept (DuckDB's preserve_insertion_order), so the file's rows are the table's rows.
  await conn.run(`COPY ${name} TO ${sqlPath(file)} (FORMAT parquet)`);
  await conn.run(`DROP TABLE ${name}`);
}

/** Writes every target, one DuckDB for them all. */
export async function writeParquetTables(targets: ParquetTarget[]): Promise<void> {
  if (targets.length === 0) return;
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const conn = await instance.connect();
  try {
    for (let n = 0; n < targets.length; n++) {
      const t = targets[n];
      if ('table' in t) await writeTable(conn, n, t.file, t.table);
      else await conn.run(`COPY (${t.select}) TO ${sqlPath(t.file)} (FORMAT parquet)`);
    }
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}
