/**
 * The DuckDB client's values, loaded with require() at their first use. @duckdb/node-api is a CommonJS
 * package of about forty files: imported from ESM, Node's loader scans every one of them for its named
 * exports before the first line runs, 0.1-0.2 s of CPU on each start of the CLI. require() skips that scan;
 * the objects are the same. Loading it at first use, not when a module that may query a store is
 * imported, spares the commands that open no store (`catintel --help`, storeless commands) its 0.1 s more.
 * Types still come from the package itself (`import type`).
 */
import { createRequire } from 'node:module';

type DuckDBClient = typeof import('@duckdb/node-api');

let client: DuckDBClient | undefined;

/** The package, required once, on the first call. */
export const duckdb = (): DuckDBClient => (client ??= createRequire(import.meta.url)('@duckdb/node-api'));

export const listValue: DuckDBClient['listValue'] = (items) => duckdb().listValue(items);
/** The class's instance type, under the same name as with the package's own import. */
export type DuckDBInstance = import('@duckdb/node-api').DuckDBInstance;
