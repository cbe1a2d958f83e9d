/**
 * The DuckDB client's values, loaded with require(). @duckdb/node-api is a CommonJS package of about forty
 * files: imported from ESM, Node's loader scans every one of them for its named exports before the first
 * line runs, 0.1-0.2 s of CPU on each start of the CLI. require() skips that scan; the objects are the same.
 * Types still come from the package itself (`import type`).
 */
import { createRequire } from 'node:module';

const duckdb: typeof import('@duckdb/node-api') = createRequire(import.meta.url)('@duckdb/node-api');

export const { DOUBLE, DuckDBInstance, JSDuckDBValueConverter, listValue } = duckdb;
/** The class's instance type, under the same name as with the package's own import. */
export type DuckDBInstance = import('@duckdb/node-api').DuckDBInstance;
