/**
 * DuckDB's spatial extension in the store, from the project's own extension directory (`make install`,
 * docs/spatial.md): its SQL functions run over the store's rings and events, and a missing extension or
 * one built for another DuckDB fails with one line naming `make install`, exit code 1, while the commands
 * that need no geometry functions keep working.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../src/store/db.js';
import { CatintelError } from '../src/errors.js';
import { cli, tempDir } from './helpers/cli.js';
import { WEEK_NOW, weekStore } from './helpers/store.js';
import { DUCKDB_PLATFORM, DUCKDB_VERSION } from './helpers/duckdb-build.js';

let db: string;
let store: Store | undefined;
beforeAll(async () => {
  db = await weekStore();
}, 120_000);
afterEach(async () => {
  await store?.close();
  store = undefined;
});

/** An extension directory holding a spatial "extension" whose DuckDB footer says it was built for `version`. */
function extensionBuiltFor(version: string): string {
  const dir = tempDir('catintel-extensions-');
  const field = (s: string) => Buffer.concat([Buffer.from(s), Buffer.alloc(32 - s.length)]);
  // DuckDB reads the last 512 bytes: eight 32-byte fields, last first (magic "4", platform, DuckDB version,
  // extension version, ABI), then the signature.
  const footer = Buffer.concat([
    field(''),
    field(''),
    field(''),
    field('CPP'),
    field('0000000'),
    field(version),
    field(DUCKDB_PLATFORM),
    field('4'),
    Buffer.alloc(256),
  ]);
  fs.mkdirSync(path.join(dir, DUCKDB_VERSION, DUCKDB_PLATFORM), { recursive: true });
  fs.writeFileSync(
    path.join(dir, DUCKDB_VERSION, DUCKDB_PLATFORM, 'spatial.duckdb_extension'),
    Buffer.concat([Buffer.alloc(1024), footer]),
  );
  return dir;
}

describe('the spatial extension in the store', () => {
  it('ST_Contains and ST_Buffer run over the store: every ring of the week holds its own epicentre', async () => {
    store = await Store.open(db, { readOnly: true });
    await store.spatial();
    const rows = await store.all<{ rings: bigint; holding: bigint; worst: number }>(`
      SELECT count(*) AS rings,
             count(*) FILTER (WHERE ST_Contains(r.geom, e.geom)) AS holding,
             -- a 0.1-degree buffer of each epicentre, in km² on the ellipsoid, against a disc of 11.12 km by
             -- 11.12 km x cos(latitude): the extension's geometry, not ours
             max(abs(ST_Area_Spheroid(ST_FlipCoordinates(ST_Buffer(e.geom, 0.1))) / 1e6 / (pi() * 11.12 ^ 2 * cos(radians(e.lat))) - 1)) AS worst
      FROM rings r JOIN events e ON e.id = r.event_id`);
    expect(Number(rows[0].rings)).toBe(79);
    expect(Number(rows[0].holding)).toBe(79);
    expect(rows[0].worst).toBeLessThan(0.02);
  });

  it('loads once for every connection: a second call and a read on another connection see the functions', async () => {
    store = await Store.open(db, { readOnly: true });
    await Promise.all([store.spatial(), store.spatial()]);
    const reads = await Promise.all(
      [1, 2, 3].map(() =>
        store!.one<{ wkt: string }>(
          "SELECT ST_AsText(ST_Centroid(ST_GeomFromText('POLYGON((0 0, 2 0, 2 2, 0 2, 0 0))'))) AS wkt",
        ),
      ),
    );
    expect(reads.map((r) => r?.wkt)).toEqual(['POINT (1 1)', 'POINT (1 1)', 'POINT (1 1)']);
  });

  it('a missing extension fails with one line naming make install, and the store still answers everything else', async () => {
    store = await Store.open(db, { readOnly: true, extensionDirectory: tempDir('catintel-no-extensions-') });
    const err = await store.spatial().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CatintelError);
    expect((err as CatintelError).code).toBe('unavailable');
    expect((err as CatintelError).message).toBe(
      `DuckDB's spatial extension for DuckDB ${DUCKDB_VERSION} (${DUCKDB_PLATFORM}) is not installed; run \`make install\` (it fetches the extension from PyPI for the installed DuckDB)`,
    );
    const n = await store.one<{ n: bigint }>('SELECT count(*) AS n FROM events');
    expect(Number(n!.n)).toBe(3209);
  });

  it('an extension built for another DuckDB fails as a mismatch naming both versions and make install', async () => {
    store = await Store.open(db, { readOnly: true, extensionDirectory: extensionBuiltFor('v1.4.3') });
    await expect(store.spatial()).rejects.toThrow(
      `the installed spatial extension was built for DuckDB v1.4.3, not the DuckDB ${DUCKDB_VERSION} npm installed; run \`make install\``,
    );
  });
});

describe('the CLI without the extension', () => {
  const env = (dir: string) => ({ CATINTEL_NOW: WEEK_NOW, CATINTEL_DUCKDB_EXTENSIONS: dir });

  it('a command that needs it (events live --format gpkg) exits 1 with one line naming make install and writes no file', async () => {
    const out = path.join(tempDir('catintel-gpkg-'), 'live.gpkg');
    const r = await cli(
      ['--db', db, 'events', 'live', '--limit', '5', '--format', 'gpkg', '--out', out],
      env(tempDir('catintel-no-extensions-')),
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/spatial extension .* is not installed; run `make install`/);
    expect(fs.readdirSync(path.dirname(out))).toEqual([]);
  });

  it('a version mismatch exits 1 the same way', async () => {
    const out = path.join(tempDir('catintel-fgb-'), 'live.fgb');
    const r = await cli(
      ['--db', db, 'events', 'live', '--limit', '5', '--format', 'fgb', '--out', out],
      env(extensionBuiltFor('v1.4.3')),
    );
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /built for DuckDB v1\.4\.3, not the DuckDB v\d+\.\d+\.\d+ npm installed; run `make install`/,
    );
  });

  it('commands that need no geometry functions still run (events live, GeoParquet, which DuckDB writes without the extension)', async () => {
    const missing = env(tempDir('catintel-no-extensions-'));
    const live = await cli(['--db', db, '--json', 'events', 'live', '--limit', '3'], missing);
    expect(live.code).toBe(0);
    expect(live.json().features).toHaveLength(3);
    const out = path.join(tempDir('catintel-parquet-'), 'live.parquet');
    const parquet = await cli(
      ['--db', db, 'events', 'live', '--limit', '3', '--format', 'geoparquet', '--out', out],
      missing,
    );
    expect(parquet.code).toBe(0);
    expect(fs.existsSync(out)).toBe(true);
  });
});
