/**
 * Bulk inserts for ingest. Multi-row INSERT ... VALUES with thousands of bound parameters is slow to
 * bind in DuckDB, so rows go through the native Appender into a staging table of plain VARCHAR/DOUBLE
 * columns, and one INSERT ... SELECT applies the casts (UUID, TIMESTAMP, GEOMETRY, JSON). Appended rows
 * belong to the surrounding transaction: a rollback discards them too.
 */
import type { DuckDBValue } from '@duckdb/node-api';
import type { Tx } from './db.js';

/** A column name with the type its value is cast to ('started_at:TIMESTAMP'). */
export interface Column {
  name: string;
  cast?: string;
}

const NUMERIC = new Set(['DOUBLE', 'INTEGER']);

export async function insertRows(
  tx: Tx,
  table: string,
  columns: Column[],
  rows: DuckDBValue[][],
  /** The table's key: rows whose key is already stored are skipped (ON CONFLICT DO NOTHING on a DuckDB file). */
  opts: { skipExisting?: string[] } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const stage = `stage_${table}`;
  const stageType = (c: Column) => (c.cast && NUMERIC.has(c.cast) ? 'DOUBLE' : 'VARCHAR');
  await tx.exec(
    `CREATE OR REPLACE TEMP TABLE ${stage} (${columns.map((c) => `${c.name} ${stageType(c)}`).join(', ')})`,
  );
  const appender = await tx.conn.createAppender(stage, 'main', 'temp');
  const numeric = columns.map((c) => stageType(c) === 'DOUBLE');
  for (const row of rows) {
    for (let i = 0; i < row.length; i++) {
      const v = row[i];
      if (v === null || v === undefined) appender.appendNull();
      else if (numeric[i]) appender.appendDouble(v as number);
      else appender.appendVarchar(String(v));
    }
    appender.endRow();
  }
  appender.flushSync();
  appender.closeSync();
  const select = columns
    .map((c) => (c.cast && c.cast !== 'DOUBLE' ? `${c.name}::${c.cast} AS ${c.name}` : c.name))
    .join(', ');
  const names = columns.map((c) => c.name).join(', ');
  const keys = opts.skipExisting;
  if (!keys) await tx.exec(`INSERT INTO ${table} (${names}) SELECT ${select} FROM ${stage}`);
  else if (tx.backend === 'file')
    await tx.exec(`INSERT INTO ${table} (${names}) SELECT ${select} FROM ${stage} ON CONFLICT DO NOTHING`);
  else {
    // A cluster store's DuckLake tables have no key to conflict on: the rows whose key is stored, or that
    // repeat one earlier in the batch, are left out by the SELECT itself.
    const same = keys.map((k) => `t.${k} = s.${k}`).join(' AND ');
    await tx.exec(
      `INSERT INTO ${table} (${names})
       SELECT ${names} FROM (SELECT ${select} FROM ${stage}) s
        WHERE NOT EXISTS (SELECT 1 FROM ${table} t WHERE ${same})
      QUALIFY row_number() OVER (PARTITION BY ${keys.join(', ')}) = 1`,
    );
  }
  await tx.exec(`DROP TABLE ${stage}`);
}

export function cols(spec: string): Column[] {
  return spec.split(',').map((s) => {
    const [name, cast] = s.trim().split(':');
    return { name, cast };
  });
}
