/**
 * `catintel db check`: is the store sound? Opening it read-only already reads DuckDB's headers and
 * catalog (a corrupt one fails there); then every column of every table is read to its end, so every
 * data block is loaded and its checksum verified. A failing block is store_corrupt (exit 5) naming the
 * table; a sound store answers with what was read. Nothing is written (CHECKPOINT would be a write).
 */
import { corruptStore, corruptionIn } from '../store/faults.js';
import { CatintelError } from '../errors.js';
import { defineHandler } from './types.js';

export interface TableCheck {
  table: string;
  rows: number;
}

export const dbCheck = defineHandler({
  name: 'db.check',
  summary: 'Check the store file: read every block of every table and verify its checksum; exit 5 when corrupt',
  cli: { command: ['db', 'check'], examples: ['catintel db check', 'catintel --db backup.duckdb db check --json'] },
  parse: () => ({}),
  async run(ctx) {
    const size = await ctx.db.one<{
      database_size: string;
      total_blocks: bigint;
      used_blocks: bigint;
      free_blocks: bigint;
    }>(
      'SELECT database_size, total_blocks, used_blocks, free_blocks FROM pragma_database_size() WHERE database_name = current_database()',
    );
    const names = await ctx.db.all<{ table_name: string }>(
      'SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() AND NOT temporary ORDER BY table_name',
    );
    const tables: TableCheck[] = [];
    for (const { table_name: table } of names) {
      try {
        // bit_xor(hash(column)) per column: every value of every column is read, so every block is loaded.
        const quoted = `"${table.replace(/"/g, '""')}"`;
        const row = await ctx.db.one<{ n: bigint }>(`SELECT count(*) AS n, bit_xor(hash(COLUMNS(*))) FROM ${quoted}`);
        tables.push({ table, rows: Number(row?.n ?? 0) });
      } catch (err) {
        const why =
          err instanceof CatintelError && err.code === 'store_corrupt'
            ? corruptionIn(String((err.cause as Error)?.message))
            : undefined;
        throw why ? corruptStore(ctx.db.path, `table ${table}: ${why}`, err) : err;
      }
    }
    return {
      body: {
        path: ctx.db.path,
        status: 'ok' as const,
        size: size?.database_size ?? null,
        blocks: size ? Number(size.used_blocks) : null,
        tables,
      },
    };
  },
});
