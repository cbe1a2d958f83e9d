/**
 * `catintel events live|nearby|rings --format gpkg|fgb --out FILE` on a week of real USGS earthquakes: the
 * GeoPackage and FlatGeobuf files GDAL writes inside DuckDB's spatial extension, read back with ST_Read and
 * compared with the `--json` answer of the same command (ids, times, numbers, coordinates, polygons).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DuckDBInstance } from '@duckdb/node-api';
import { cli, tempDir } from './helpers/cli.js';
import { REPO_ROOT } from './helpers/paths.js';
import { WEEK_NOW, weekStore } from './helpers/store.js';

const env = { CATINTEL_NOW: WEEK_NOW };
let db: string;
let dir: string;
beforeAll(async () => {
  db = await weekStore();
  dir = tempDir('catintel-events-gis-');
}, 120_000);

/** The file's layer as GDAL reads it (ST_Read), each geometry as WKT, and the layer's CRS. */
async function layerOf(
  file: string,
): Promise<{ rows: Record<string, any>[]; layer: { name: string; crs: string; type: string } }> {
  // The extension `make install` put in the project, loaded by hand: the reader is not the code under test.
  const inst = await DuckDBInstance.create(':memory:', {
    extension_directory: path.join(REPO_ROOT, 'duckdb-extensions'),
    autoinstall_known_extensions: 'false',
  });
  const c = await inst.connect();
  const f = file.replaceAll("'", "''");
  try {
    await c.run('LOAD spatial');
    const rows = (
      await c.runAndReadAll(
        `SELECT * EXCLUDE (geom), ST_AsText(geom) AS wkt, ST_X(ST_Centroid(geom)) AS x, ST_Y(ST_Centroid(geom)) AS y, ST_Area(geom) AS area FROM ST_Read('${f}')`,
      )
    ).getRowObjectsJS();
    const meta = (
      await c.runAndReadAll(
        `SELECT l.name, l.geometry_fields[1].crs.auth_code AS code, l.geometry_fields[1].type AS type FROM (SELECT unnest(layers) AS l FROM ST_Read_Meta('${f}'))`,
      )
    ).getRowObjectsJS();
    return { rows, layer: { name: String(meta[0].name), crs: `EPSG:${meta[0].code}`, type: String(meta[0].type) } };
  } finally {
    c.closeSync();
    inst.closeSync();
  }
}

describe('catintel events --format gpkg|fgb --out FILE', () => {
  it('events live --format gpkg: a GeoPackage layer "events" of points in EPSG:4326 (longitude as x), field for field as --json', async () => {
    const out = path.join(dir, 'live.gpkg');
    const r = await cli(
      ['--db', db, '--json', 'events', 'live', '--limit', '200', '--format', 'gpkg', '--out', out],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse((await cli(['--db', db, '--json', 'events', 'live', '--limit', '200'], env)).stdout);
    expect(r.json()).toMatchObject({ file: out, format: 'gpkg', rows: 200, numberMatched: body.numberMatched });
    const { rows, layer } = await layerOf(out);
    expect(layer).toEqual({ name: 'events', crs: 'EPSG:4326', type: 'Point' });
    expect(rows).toHaveLength(200);
    body.features.forEach((f: any, k: number) => {
      expect(rows[k].id).toBe(f.properties.id);
      expect(rows[k].title).toBe(f.properties.title);
      expect(rows[k].severity).toBe(f.properties.severity);
      expect(new Date(rows[k].started_at).toISOString()).toBe(new Date(f.properties.started_at).toISOString());
      expect([rows[k].x, rows[k].y]).toEqual(f.geometry.coordinates);
    });
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]); // no temporaries left
  });

  it('events nearby --format fgb: a FlatGeobuf file of the page, nearest first, with distance_km', async () => {
    const out = path.join(dir, 'nearby.fgb');
    const args = ['events', 'nearby', '--lat', '35.77', '--lng', '-117.6', '--radius-km', '300', '--limit', '100'];
    const r = await cli(['--db', db, '--json', ...args, '--format', 'fgb', '--out', out], env);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse((await cli(['--db', db, '--json', ...args], env)).stdout);
    expect(body.features.length).toBeGreaterThan(0);
    const { rows, layer } = await layerOf(out);
    expect(layer).toEqual({ name: 'events', crs: 'EPSG:4326', type: 'Point' });
    expect(rows.map((x) => x.id)).toEqual(body.features.map((f: any) => f.properties.id));
    expect(rows.map((x) => x.distance_km)).toEqual(body.features.map((f: any) => f.properties.distance_km));
    expect(rows.map((x) => [x.x, x.y])).toEqual(body.features.map((f: any) => f.geometry.coordinates));
  });

  it('events rings --format gpkg and fgb: the ring polygons, the same shapes as the GeoJSON', async () => {
    const live = JSON.parse((await cli(['--db', db, '--json', 'events', 'live', '--limit', '100'], env)).stdout);
    let rings: any;
    for (const f of live.features) {
      rings = JSON.parse((await cli(['--db', db, '--json', 'events', 'rings', f.id], env)).stdout);
      if (rings.features.length > 0) break;
    }
    expect(rings.features.length).toBeGreaterThan(0);
    const id = rings.features[0].properties.event_id;
    for (const format of ['gpkg', 'fgb']) {
      const out = path.join(dir, `rings.${format}`);
      const r = await cli(['--db', db, '--json', 'events', 'rings', id, '--format', format, '--out', out], env);
      expect(r.code, r.stderr).toBe(0);
      const { rows, layer } = await layerOf(out);
      expect(layer.name).toBe('rings');
      expect(rows.map((x) => x.ring_id)).toEqual(rings.features.map((x: any) => x.properties.ring_id));
      expect(rows.map((x) => x.label)).toEqual(rings.features.map((x: any) => x.properties.label));
      rows.forEach((x, k) => {
        const g = rings.features[k].geometry;
        expect(String(x.wkt)).toMatch(g.type === 'Polygon' ? /^POLYGON/ : /^MULTIPOLYGON/);
        // The first vertex of the outer ring, as written: no axis swap, no loss of precision.
        const first = g.type === 'Polygon' ? g.coordinates[0][0] : g.coordinates[0][0][0];
        expect(String(x.wkt)).toContain(`((${first[0]} ${first[1]},`);
        expect(x.area).toBeGreaterThan(0);
      });
    }
  });
});
