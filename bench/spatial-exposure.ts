/**
 * Infrastructure inside every ring of a store, three ways, with the counts checked equal (docs/spatial.md,
 * "Measured"):
 *  - js: what exposure does today (src/intelligence/infrastructure/store.ts): flatbush over the facilities,
 *    each ring's bbox, then point in polygon (turf);
 *  - sql_join: one ST_Contains join of rings x facilities in DuckDB with the spatial extension (its planner
 *    turns a spatial predicate join into a spatial join);
 *  - sql_rtree: one query per ring, as a request would ask, against the facilities table with and without an
 *    R-tree index on its points.
 * The facilities and rings are copied into a private in-memory DuckDB (the store is opened read-only). Each
 * figure is the median of 5 runs after one warm-up.
 *
 *   node dist/bench/spatial-exposure.js --db catintel.duckdb
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MultiPolygon, Polygon } from 'geojson';
import { facilitiesInside, loadInfrastructure } from '../src/intelligence/infrastructure/store.js';
import { duckdb } from '../src/store/duckdb.js';
import { extensionDirectory, extensionSettings, loadSpatial } from '../src/store/extensions.js';
import { Store } from '../src/store/db.js';
import { sqlPath } from '../src/scoring-bulk/scratch-duckdb.js';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; result: T }> {
  let result = await fn(); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    result = await fn();
    ms.push(performance.now() - t0);
  }
  return { ms: median(ms), result };
}

async function main(): Promise<void> {
  const at = process.argv.indexOf('--db');
  const dbPath = at > 0 ? process.argv[at + 1] : 'catintel.duckdb';
  const store = await Store.open(dbPath, { readOnly: true });
  const rings = await store.all<{ ring_id: string; geojson: string }>(
    'SELECT ring_id::VARCHAR AS ring_id, geojson FROM rings ORDER BY ring_id',
  );
  await store.close();
  const infra = loadInfrastructure();
  const geometries = rings.map((r) => JSON.parse(r.geojson) as Polygon | MultiPolygon);

  const js = await timed(() => geometries.map((g) => facilitiesInside(infra, g).length));

  const dir = extensionDirectory();
  const instance = await duckdb().DuckDBInstance.create(':memory:', extensionSettings(dir));
  const conn = await instance.connect();
  await loadSpatial(conn, dir);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'spatial-exposure-'));
  try {
    const facilitiesFile = path.join(tmp, 'facilities.ndjson');
    fs.writeFileSync(
      facilitiesFile,
      infra.facilities.map((f, i) => JSON.stringify({ i, lng: f.lng, lat: f.lat })).join('\n') + '\n',
    );
    const ringsFile = path.join(tmp, 'rings.ndjson');
    fs.writeFileSync(ringsFile, rings.map((r, k) => JSON.stringify({ k, geojson: r.geojson })).join('\n') + '\n');
    await conn.run(
      `CREATE TABLE facilities AS SELECT i, ST_Point(lng, lat) AS geom FROM read_json(${sqlPath(facilitiesFile)}, format = 'newline_delimited')`,
    );
    await conn.run(
      `CREATE TABLE rings AS SELECT k, ST_GeomFromGeoJSON(geojson) AS geom FROM read_json(${sqlPath(ringsFile)}, format = 'newline_delimited', columns = {k: 'INTEGER', geojson: 'VARCHAR'})`,
    );

    const countsOf = (rows: unknown[][]) => {
      const out = new Array<number>(rings.length).fill(0);
      for (const [k, n] of rows) out[Number(k)] = Number(n);
      return out;
    };
    const join = await timed(async () =>
      countsOf(
        (
          await conn.runAndReadAll(
            'SELECT r.k, count(*) FROM rings r JOIN facilities f ON ST_Contains(r.geom, f.geom) GROUP BY r.k',
          )
        ).getRows(),
      ),
    );
    const perRing = async () => {
      const out: number[] = [];
      for (const r of rings)
        out.push(
          Number(
            (
              await conn.runAndReadAll(
                'SELECT count(*) FROM facilities WHERE ST_Contains(ST_GeomFromGeoJSON($1), geom)',
                [r.geojson],
              )
            ).getRows()[0][0],
          ),
        );
      return out;
    };
    const scan = await timed(perRing);
    await conn.run('CREATE INDEX facilities_geom ON facilities USING RTREE (geom)');
    const rtree = await timed(perRing);

    const same = (a: number[]) => a.every((n, k) => n === js.result[k]);
    const report = {
      rings: rings.length,
      facilities: infra.facilities.length,
      facilities_in_rings: js.result.reduce((a, b) => a + b, 0),
      js_ms: js.ms,
      sql_join_ms: join.ms,
      sql_per_ring_scan_ms: scan.ms,
      sql_per_ring_rtree_ms: rtree.ms,
      counts_equal: same(join.result) && same(scan.result) && same(rtree.result),
    };
    console.log(
      JSON.stringify(
        report,
        (_k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 10) / 10 : v),
        2,
      ),
    );
    if (!report.counts_equal) process.exitCode = 1;
  } finally {
    conn.closeSync();
    instance.closeSync();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
