/**
 * DuckDB's spatial extension (ST_Buffer, ST_Contains, ST_Read, COPY ... (FORMAT GDAL)), and the ducklake and
 * postgres extensions a cluster store attaches (src/store/cluster/), from the project's own extension directory: `make install` unpacks it there from PyPI for the exact DuckDB version npm
 * installed (scripts/install-duckdb-extensions.py). DuckDB is never allowed to fetch or autoload an extension
 * by itself: what loads is what `make install` put there, or nothing.
 *
 * Loaded on first use, not when a store opens: loading the 80 MB library costs about half a second of CPU,
 * which every CLI command and every `catintel serve` start would pay, and a command that needs no geometry
 * functions (score point, events live, oasis run) keeps working on a machine where the extension is missing.
 * A command that does need it and does not find it fails with one line naming the fix (exit code 1).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { CatintelError } from '../errors.js';
import { packageRoot } from '../lib/package-root.js';

export const EXTENSIONS_DIR_ENV = 'CATINTEL_DUCKDB_EXTENSIONS';

/** The directory `make install` fills: CATINTEL_DUCKDB_EXTENSIONS, or duckdb-extensions/ in the project. */
export function extensionDirectory(env: Record<string, string | undefined> = process.env): string {
  return path.resolve(env[EXTENSIONS_DIR_ENV] || path.join(packageRoot(), 'duckdb-extensions'));
}

/** DuckDB settings for every instance the project creates: extensions come from that directory only. */
export function extensionSettings(directory: string): Record<string, string> {
  return { extension_directory: directory, autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' };
}

const FIX = 'run `make install` (it fetches the extension from PyPI for the installed DuckDB)';

/** The extensions `make install` puts in the directory: the store's geometry functions, and the cluster store's two. */
export type ExtensionName = 'spatial' | 'ducklake' | 'postgres_scanner';

/** LOAD spatial on the connection's instance (every connection of it sees the functions afterwards). */
export function loadSpatial(conn: DuckDBConnection, directory: string): Promise<void> {
  return loadExtension(conn, directory, 'spatial');
}

/**
 * LOAD an extension from the directory. The file's presence is checked first so that its absence reads as
 * such; DuckDB itself refuses a file built for another version or platform, which reads as a mismatch. Both
 * name the fix.
 */
export async function loadExtension(conn: DuckDBConnection, directory: string, name: ExtensionName): Promise<void> {
  // The library's own version and platform ("v1.5.5", "linux_amd64"): the folders DuckDB looks in.
  const [version, platform] = (await conn.runAndReadAll('SELECT version(), (SELECT platform FROM pragma_platform())'))
    .getRows()[0]
    .map(String);
  const file = path.join(directory, version, platform, `${name}.duckdb_extension`);
  if (!fs.existsSync(file)) {
    throw new CatintelError(
      'unavailable',
      `DuckDB's ${name} extension for DuckDB ${version} (${platform}) is not installed; ${FIX}`,
    );
  }
  try {
    await conn.run(`LOAD ${name}`);
  } catch (err) {
    const first = (err instanceof Error ? err.message : String(err)).split('\n')[0];
    const builtFor = /built specifically for DuckDB version '([^']+)'/.exec(first)?.[1];
    const reason = builtFor
      ? `the installed ${name} extension was built for DuckDB ${builtFor}, not the DuckDB ${version} npm installed`
      : /not a DuckDB extension|metadata/i.test(first)
        ? `the installed ${name} extension for DuckDB ${version} (${platform}) is damaged: it is not a DuckDB extension`
        : `DuckDB's ${name} extension for DuckDB ${version} (${platform}) does not load (${first.replace(/"[^"]*"|'[^']*'/g, '…')})`;
    throw new CatintelError('unavailable', `${reason}; ${FIX}`, { cause: err });
  }
}
