/**
 * The address of a cluster store (docs/cluster-store.md): a PostgreSQL URL whose `data` parameter names the
 * directory DuckLake writes its Parquet files to, shared by every machine that opens the store:
 *
 *   postgres://catintel@db.internal:5432/catintel?data=/mnt/lake
 *
 * PostgreSQL holds DuckLake's catalog (schema `ducklake`) and the transactional tables (schema `public`) in
 * that one database. Anything else in the URL's query is refused rather than ignored: a misspelt parameter
 * would otherwise open a different store than the one meant.
 */
import path from 'node:path';
import { CatintelError } from '../../errors.js';

export interface ClusterAddress {
  /** libpq's key=value connection string, for DuckDB's postgres and ducklake extensions and for node-postgres. */
  conninfo: string;
  /** The shared directory of DuckLake's data files, absolute, with a trailing slash. */
  dataPath: string;
  /** The URL without its password: what messages and logs show. */
  shown: string;
  /** The same connection for node-postgres (the schema lock, change notices and rate limits). */
  client: { host: string; port: number; database: string; user?: string; password?: string };
}

/** True for a --db/--store value that names a cluster store rather than a DuckDB file. */
export function isClusterAddress(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value);
}

export function parseClusterAddress(value: string): ClusterAddress {
  const bad = (why: string) =>
    new CatintelError(
      'invalid_parameter',
      `store address ${JSON.stringify(shownOf(value))} ${why}; write it as postgres://USER@HOST:PORT/DATABASE?data=/shared/dir`,
      { errors: [{ field: 'store', message: why }] },
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad('is not a URL');
  }
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!url.hostname) throw bad('names no host');
  if (!database) throw bad('names no database');
  const unknown = [...url.searchParams.keys()].filter((k) => k !== 'data');
  if (unknown.length > 0) throw bad(`has the unknown parameter ${unknown.join(', ')} (only data= is read)`);
  const data = url.searchParams.get('data');
  if (!data) throw bad('names no data directory (data=): the shared directory for the store’s data files');
  if (!path.isAbsolute(data)) throw bad(`has a relative data directory ${JSON.stringify(data)}: give an absolute path`);
  const fields: [string, string][] = [
    ['host', url.hostname.replace(/^\[|\]$/g, '')],
    ['port', url.port || '5432'],
    ['dbname', database],
    ['user', decodeURIComponent(url.username)],
    ['password', decodeURIComponent(url.password)],
  ];
  const conninfo = fields
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${k}='${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`)
    .join(' ');
  const [host, port, , user, password] = fields.map(([, v]) => v);
  return {
    conninfo,
    dataPath: path.join(data, '/'),
    shown: shownOf(value),
    client: { host, port: Number(port), database, ...(user && { user }), ...(password && { password }) },
  };
}

function shownOf(value: string): string {
  return value.replace(/^(postgres(?:ql)?:\/\/[^:/@]*):[^@/]*@/i, '$1:***@');
}

/** A value for a single-quoted SQL string literal (ATTACH takes no bound parameters). */
export function sqlText(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
