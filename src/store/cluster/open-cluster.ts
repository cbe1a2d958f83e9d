/**
 * Opening a cluster store: DuckDB in memory, with DuckLake (catalog in the PostgreSQL database, data files in
 * the shared directory) attached as `lake` and the same database's public schema attached as `pg`, and every
 * connection's search path set to both, so the store's SQL names its tables unqualified as on a DuckDB file.
 *
 * The first process to open a new cluster store creates its tables (schema.ts) under a PostgreSQL advisory
 * lock, so two servers started at once do not both try; a store created by another catintel version is
 * refused (no in-place upgrade yet).
 */
import fs from 'node:fs';
import type { DuckDBConnection } from '@duckdb/node-api';
import pg from 'pg';
import { CatintelError } from '../../errors.js';
import { loadExtension } from '../extensions.js';
import type { Migration } from '../migrations.js';
import { LAKE, PG, SEARCH_PATH } from './placement.js';
import { clusterSchema } from './schema.js';
import { sqlText, type ClusterAddress } from './store-url.js';

/** Any fixed number: the key of the advisory lock that one creator of a store's tables holds. */
const SCHEMA_LOCK = 7_310_204;

export async function attachCluster(conn: DuckDBConnection, address: ClusterAddress, extensionDir: string) {
  await loadExtension(conn, extensionDir, 'ducklake');
  await loadExtension(conn, extensionDir, 'postgres_scanner');
  try {
    fs.mkdirSync(address.dataPath, { recursive: true });
  } catch (err) {
    throw new CatintelError(
      'unavailable',
      `cannot create the cluster store's data directory ${address.dataPath}: ${(err as Error).message}`,
    );
  }
  try {
    // No data inlining (DuckLake's default keeps writes of up to 10 rows in the catalog): a replica reading
    // inlined rows while another process wrote them hit an internal assertion in DuckLake 1.5.5's inlined
    // data reader ("Attempted to access index 0 within vector of size 0"), which invalidates the whole
    // database until the process restarts. Every write goes to a Parquet file instead.
    await conn.run(
      `ATTACH ${sqlText(`ducklake:postgres:${address.conninfo}`)} AS ${LAKE} (DATA_PATH ${sqlText(address.dataPath)}, METADATA_SCHEMA 'ducklake', DATA_INLINING_ROW_LIMIT 0)`,
    );
    await conn.run(`ATTACH ${sqlText(address.conninfo)} AS ${PG} (TYPE postgres)`);
  } catch (err) {
    throw unreachable(address, err);
  }
}

/** Every connection of the instance finds the tables of both engines by their plain names. */
export async function useCluster(conn: DuckDBConnection): Promise<void> {
  await conn.run(`SET search_path = ${sqlText(SEARCH_PATH)}`);
}

/** Creates the tables when the store is new; refuses a store created at other migrations. */
export async function ensureClusterSchema(
  conn: DuckDBConnection,
  address: ClusterAddress,
  migrations: Migration[],
  readOnly: boolean,
): Promise<void> {
  const client = await connectClient(address);
  try {
    await client.query('SELECT pg_advisory_lock($1)', [SCHEMA_LOCK]);
    const recorded = await recordedVersions(conn);
    if (recorded === null) {
      if (readOnly) {
        throw new CatintelError(
          'unavailable',
          `cluster store ${address.shown} has no tables yet; run a writing command such as \`catintel db seed\` or \`catintel ingest\` against it once to create them`,
        );
      }
      await create(conn, migrations);
      return;
    }
    const missing = migrations.filter((m) => !recorded.has(m.version));
    if (missing.length > 0) {
      throw new CatintelError(
        'unavailable',
        `cluster store ${address.shown} was created at schema version ${Math.max(...recorded)} and this catintel needs ${migrations[migrations.length - 1].version}; cluster stores have no in-place upgrade yet: create a new one and load it again (docs/cluster-store.md#upgrades)`,
      );
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [SCHEMA_LOCK]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}

async function recordedVersions(conn: DuckDBConnection): Promise<Set<number> | null> {
  const exists = await conn.runAndReadAll(
    `SELECT count(*) FROM duckdb_tables() WHERE database_name = '${PG}' AND table_name = 'schema_migrations'`,
  );
  if (Number(exists.getRows()[0][0]) === 0) return null;
  const rows = await conn.runAndReadAll(`SELECT version FROM ${PG}.public.schema_migrations`);
  const versions = new Set(rows.getRows().map((r) => Number(r[0])));
  return versions.size > 0 ? versions : null;
}

/**
 * Each engine's tables in one transaction of their own (one DuckDB transaction writes one attached
 * database), the migration rows last: a store whose creation was cut short has no rows there and is
 * created again, IF NOT EXISTS keeping the tables already made.
 */
async function create(conn: DuckDBConnection, migrations: Migration[]): Promise<void> {
  const statements = (await clusterSchema(migrations)).map((s) =>
    s.replace(/^CREATE TABLE /, 'CREATE TABLE IF NOT EXISTS '),
  );
  for (const engine of [`${LAKE}.`, `${PG}.`]) {
    await conn.run('BEGIN TRANSACTION');
    try {
      for (const s of statements.filter((s) => s.startsWith(`CREATE TABLE IF NOT EXISTS ${engine}`))) await conn.run(s);
      await conn.run('COMMIT');
    } catch (err) {
      await conn.run('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }
  const values = migrations.map((m) => `(${m.version}, ${sqlText(m.name)}, current_timestamp::TIMESTAMP)`).join(', ');
  await conn.run(`INSERT INTO ${PG}.public.schema_migrations VALUES ${values}`);
}

export async function connectClient(address: ClusterAddress): Promise<pg.Client> {
  const client = new pg.Client({ ...address.client, connectionTimeoutMillis: 10_000 });
  // A connection cut by the server (a restart) is an 'error' event: unheard, it would end the process. The
  // query in flight fails on its own, and holders of a long-lived client watch for 'end'.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (err) {
    await client.end().catch(() => undefined);
    throw unreachable(address, err);
  }
  return client;
}

function unreachable(address: ClusterAddress, err: unknown): CatintelError {
  const first = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  return new CatintelError(
    'unavailable',
    `cannot open cluster store ${address.shown}: ${first}; check that PostgreSQL is running there and the database exists (createdb)`,
    { cause: err },
  );
}
