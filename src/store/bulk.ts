/** Multi-row INSERTs with bound parameters, in chunks: fast for thousands of rows, no string-built values. */
import type { DuckDBValue } from '@duckdb/node-api';
import type { Tx } from './db.js';

/** A column name with an optional cast applied to its placeholder ('started_at' -> '?::TIMESTAMP'). */
export interface Column {
  name: string;
  cast?: string;
}

export async function insertRows(
  tx: Tx,
  table: string,
  columns: Column[],
  rows: DuckDBValue[][],
  opts: { onConflict?: string; chunkRows?: number } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const chunk = opts.chunkRows ?? Math.max(1, Math.floor(20_000 / columns.length));
  const tuple = `(${columns.map((c) => (c.cast ? `?::${c.cast}` : '?')).join(', ')})`;
  const head = `INSERT INTO ${table} (${columns.map((c) => c.name).join(', ')}) VALUES `;
  const tail = opts.onConflict ? ` ${opts.onConflict}` : '';
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk);
    await tx.run(head + part.map(() => tuple).join(', ') + tail, part.flat());
  }
}

export function cols(spec: string): Column[] {
  return spec.split(',').map((s) => {
    const [name, cast] = s.trim().split(':');
    return { name, cast };
  });
}
