/**
 * The tables of a cluster store, derived from the embedded store's migrations rather than written twice:
 * the migrations run in a throwaway in-memory DuckDB, and each resulting table is created in its engine
 * (placement.ts) with the same columns, types, NOT NULLs and defaults, plus its PRIMARY KEY and UNIQUE
 * constraints where the engine has them (PostgreSQL). A migration added to src/store/migrations.ts reaches
 * cluster stores created after it without a second schema to keep in step.
 *
 * A cluster store records the migrations it was created with in its own schema_migrations table. There is
 * no in-place upgrade of a cluster store yet: one created by an older catintel is refused with a message
 * naming that (docs/cluster-store.md#upgrades).
 */
import { duckdb } from '../duckdb.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import type { Migration } from '../migrations.js';
import { engineOf, LAKE, PG } from './placement.js';

interface ColumnInfo {
  name: string;
  type: string;
  nullable: boolean;
  default: string | null;
}

interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  /** PRIMARY KEY and UNIQUE constraints, each its column names. */
  keys: { kind: 'PRIMARY KEY' | 'UNIQUE'; columns: string[] }[];
}

/** The CREATE TABLE statements of a cluster store at the latest migration, schema_migrations first. */
export async function clusterSchema(migrations: Migration[]): Promise<string[]> {
  const tables = await tablesAfter(migrations);
  return tables.map((t) => createStatement(t));
}

async function tablesAfter(migrations: Migration[]): Promise<TableInfo[]> {
  const instance = await duckdb().DuckDBInstance.create(':memory:');
  const conn = await instance.connect();
  try {
    await conn.run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name VARCHAR, applied_at TIMESTAMP)');
    for (const m of migrations) await conn.run(m.sql);
    const names = (await rows(conn, `SELECT table_name FROM duckdb_tables() ORDER BY table_oid`)).map((r) =>
      String(r[0]),
    );
    const out: TableInfo[] = [];
    for (const name of names) {
      const columns = (
        await rows(
          conn,
          `SELECT column_name, data_type, is_nullable, column_default FROM duckdb_columns() WHERE table_name = '${name}' ORDER BY column_index`,
        )
      ).map((r) => ({
        name: String(r[0]),
        type: String(r[1]),
        nullable: Boolean(r[2]),
        default: r[3] as string | null,
      }));
      const keys = (
        await rows(
          conn,
          `SELECT constraint_type, constraint_column_names FROM duckdb_constraints() WHERE table_name = '${name}' AND constraint_type IN ('PRIMARY KEY', 'UNIQUE') ORDER BY constraint_index`,
        )
      ).map((r) => ({
        kind: String(r[0]) as 'PRIMARY KEY' | 'UNIQUE',
        columns: (r[1] as { items: unknown[] }).items.map(String),
      }));
      out.push({ name, columns, keys });
    }
    return out;
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

async function rows(conn: DuckDBConnection, sql: string): Promise<unknown[][]> {
  return (await conn.runAndReadAll(sql)).getRows();
}

function createStatement(t: TableInfo): string {
  const engine = engineOf(t.name);
  const columns = t.columns.map((c) => {
    const def = c.default === null ? '' : ` DEFAULT ${literalDefault(t.name, c)}`;
    return `${quoted(c.name)} ${c.type}${c.nullable ? '' : ' NOT NULL'}${def}`;
  });
  // DuckLake keeps no key constraints; PostgreSQL enforces them for every replica at once.
  const keys =
    engine === 'pg' ? t.keys.map((k) => `${k.kind} (${k.columns.map(quoted).join(', ')})`) : ([] as string[]);
  const where = engine === 'pg' ? `${PG}.public` : `${LAKE}.main`;
  return `CREATE TABLE ${where}.${quoted(t.name)} (${[...columns, ...keys].join(', ')})`;
}

/**
 * A column default as a literal: DuckLake stores only literal defaults, and DuckDB reports `false` as
 * CAST('f' AS BOOLEAN). A default that is an expression (current_timestamp) cannot be carried over, and a
 * migration that adds one fails here, loudly, rather than leaving cluster inserts to write NULL.
 */
function literalDefault(table: string, c: ColumnInfo): string {
  const d = c.default!;
  const cast = /^CAST\(('(?:[^']|'')*') AS [A-Z]+\)$/.exec(d);
  if (cast) return cast[1];
  if (/^-?\d+(\.\d+)?$/.test(d) || /^'(?:[^']|'')*'$/.test(d)) return d;
  throw new Error(
    `${table}.${c.name} has the default ${d}, which a cluster store cannot carry (DuckLake keeps literal defaults only)`,
  );
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;
