/**
 * Which engine holds each table of a cluster store (docs/cluster-store.md#where-each-table-lives).
 *
 * DuckLake (Parquet files on shared storage, catalog in PostgreSQL) holds what is appended and scanned:
 * events, rings, their history, observations, ingest runs, grids, portfolios and their locations, saved
 * locations and the alerts ingest raises. DuckLake has no PRIMARY KEY or UNIQUE constraint; those tables
 * are written by one writer per key (the ingest of a source, the owner of a portfolio or location), and
 * their writes skip rows already present instead (src/store/cluster/portable-sql.ts).
 *
 * PostgreSQL holds the state that every `serve` replica writes at once and that must stay exact across
 * them: API keys, triggers and everything their evaluation records (entries, alerts, fire probabilities),
 * the per-event portfolio losses the stream computes, and the schema version. One DuckDB transaction can
 * write only one attached database, so a transaction's tables all live in the same engine: the trigger
 * tables together, the ingest tables together.
 */
export type Engine = 'lake' | 'pg';

const IN_POSTGRES = new Set([
  'schema_migrations',
  'api_keys',
  'triggers',
  'trigger_observations',
  'trigger_alerts',
  'trigger_history',
  'trigger_fire_probability',
  'portfolio_event_losses',
]);

export function engineOf(table: string): Engine {
  return IN_POSTGRES.has(table) ? 'pg' : 'lake';
}

/** The attached databases' names in the store's DuckDB instance, and the search path that finds a table in either. */
export const LAKE = 'lake';
export const PG = 'pg';
export const SEARCH_PATH = `${LAKE}.main,${PG}.public`;
