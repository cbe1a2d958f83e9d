/**
 * ORD tables as Parquet files, through an in-memory DuckDB: each table's rows go into a DuckDB table of
 * the same columns (INTEGER for Oasis's int32, FLOAT for its float32) by the appender, in row order, and
 * COPY writes that table out. DuckDB is loaded only when a run asks for Parquet.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { sqlPath } from '../../scoring-bulk/duck.js';
import type { OrdTable } from '../domain/ord-table.js';

/** A table to write, or (summary-info, whose columns are not Oasis's int32/float32) a query of constants. */
export type ParquetTarget = { file: string; table: OrdTable } | { file: string; select: string };

const SQL_TYPE = { int32: 'INTEGER', float32: 'FLOAT' } as const;
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

async function writeTable(conn: DuckDBConnection, n: number, file: string, table: OrdTable): Promise<void> {
  const name = `ord_${n}`;
  const w = table.columns.length;
  await conn.run(`CREATE TEMP TABLE ${name} (${table.columns.map((c) => `${quoted(c.name)} ${SQL_TYPE[c.type]}`).join(', ')})`);
  const appender = await conn.createAppender(name, 'main', 'temp');
  try {
    const v = table.values;
    const isInt = table.columns.map((c) => c.type === 'int32');
    for (let i = 0; i < v.length; i += w) {
      for (let c = 0; c < w; c++) {
        if (isInt[c]) appender.appendInteger(v[i + c]);
        else appender.appendFloat(v[i + c]);
      }
      appender.endRow();
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
