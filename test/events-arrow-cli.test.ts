/**
 * `catintel events live|nearby --format arrow|geoparquet --out FILE` on a week of real USGS earthquakes:
 * the files read back (apache-arrow; DuckDB for the GeoParquet, with its `geo` metadata) and compared with
 * the `--json` answer of the same command.
 */
import fs from 'node:fs';
import path from 'node:path';
import { tableFromIPC } from 'apache-arrow';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { WEEK_NOW, weekStore } from './helpers/store.js';

const env = { CATINTEL_NOW: WEEK_NOW };
let db: string;
let dir: string;
beforeAll(async () => {
  db = await weekStore();
  dir = tempDir('catintel-events-arrow-');
}, 120_000);

async function parquetOf(file: string) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  const f = file.replaceAll("'", "''");
  try {
    // The GEOMETRY column as the bytes in the file (WKB), not DuckDB's own geometry type.
    await c.run('SET enable_geoparquet_conversion = false');
    const types = (
      await c.runAndReadAll(`SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet('${f}'))`)
    ).getRowObjectsJS();
    const rows = (
      await c.runAndReadAll(
        `SELECT id, epoch_ms(started_at)::DOUBLE AS started_ms, severity, longitude, latitude, hex(geometry) AS wkb FROM read_parquet('${f}')`,
      )
    ).getRowObjectsJS();
    const kv = (
      await c.runAndReadAll(`SELECT decode(key) AS k, decode(value) AS v FROM parquet_kv_metadata('${f}')`)
    ).getRowObjectsJS();
    return {
      types: Object.fromEntries(types.map((t) => [t.column_name, t.column_type])),
      rows,
      geo: JSON.parse(String(kv.find((x) => x.k === 'geo')!.v)),
    };
  } finally {
    c.closeSync();
    inst.closeSync();
  }
}

/** A point as little-endian WKB, in hex. */
const pointWkb = (lng: number, lat: number) => {
  const b = Buffer.alloc(21);
  b[0] = 1;
  b.writeUInt32LE(1, 1);
  b.writeDoubleLE(lng, 5);
  b.writeDoubleLE(lat, 13);
  return b.toString('hex').toUpperCase();
};

describe('catintel events live|nearby --format arrow|geoparquet --out FILE', () => {
  it('events live --format arrow: an Arrow IPC file of the page --json prints, field for field', async () => {
    const out = path.join(dir, 'live.arrow');
    const r = await cli(
      ['--db', db, '--json', 'events', 'live', '--limit', '300', '--format', 'arrow', '--out', out],
      env,
    );
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse((await cli(['--db', db, '--json', 'events', 'live', '--limit', '300'], env)).stdout);
    expect(r.json()).toMatchObject({ file: out, format: 'arrow', rows: 300, numberMatched: body.numberMatched });
    const t = tableFromIPC(fs.readFileSync(out));
    expect(t.numRows).toBe(300);
    const rows = t.toArray();
    body.features.forEach((f: any, k: number) => {
      expect(rows[k].id).toBe(f.properties.id);
      expect(new Date(Number(rows[k].started_at)).toISOString()).toBe(new Date(f.properties.started_at).toISOString());
      expect(rows[k].severity).toBe(f.properties.severity);
      expect([rows[k].longitude, rows[k].latitude]).toEqual(f.geometry.coordinates);
    });
  });

  it('events nearby --format geoparquet: GeoParquet with WKB points, the geo metadata (CRS84 by default) and typed columns', async () => {
    const out = path.join(dir, 'nearby.parquet');
    const args = ['events', 'nearby', '--lat', '35.77', '--lng', '-117.6', '--radius-km', '300', '--limit', '100'];
    const r = await cli(['--db', db, '--json', ...args, '--format', 'geoparquet', '--out', out], env);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse((await cli(['--db', db, '--json', ...args], env)).stdout);
    expect(body.features.length).toBeGreaterThan(0);
    const pq = await parquetOf(out);
    expect(pq.geo).toMatchObject({
      primary_column: 'geometry',
      columns: { geometry: { encoding: 'WKB', geometry_types: ['Point'] } },
    });
    expect(pq.geo.columns.geometry.crs).toBeUndefined(); // GeoParquet: no crs is OGC:CRS84
    expect(pq.types).toMatchObject({
      id: 'VARCHAR',
      started_at: 'TIMESTAMP WITH TIME ZONE',
      severity: 'DOUBLE',
      distance_km: 'DOUBLE',
      upcoming: 'BOOLEAN',
    });
    expect(pq.rows).toHaveLength(body.features.length);
    body.features.forEach((f: any, k: number) => {
      const row = pq.rows[k];
      expect(row.id).toBe(f.properties.id);
      expect(row.severity).toBe(f.properties.severity);
      expect(row.started_ms).toBe(Date.parse(f.properties.started_at));
      expect(row.wkb).toBe(pointWkb(f.geometry.coordinates[0], f.geometry.coordinates[1]));
    });
    expect(fs.readdirSync(dir).filter((n) => n.startsWith('.'))).toEqual([]); // no temporaries left
  });

  it('events rings --format geoparquet: the polygons as WKB, the geo metadata naming their type', async () => {
    const live = JSON.parse((await cli(['--db', db, '--json', 'events', 'live', '--limit', '100'], env)).stdout);
    let rings: any;
    for (const f of live.features) {
      rings = JSON.parse((await cli(['--db', db, '--json', 'events', 'rings', f.id], env)).stdout);
      if (rings.features.length > 0) break;
    }
    const id = rings.features[0].properties.event_id;
    const out = path.join(dir, 'rings.parquet');
    const r = await cli(['--db', db, '--json', 'events', 'rings', id, '--format', 'geoparquet', '--out', out], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().rows).toBe(rings.features.length);
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const inst = await DuckDBInstance.create(':memory:');
    const c = await inst.connect();
    try {
      const f = out.replaceAll("'", "''");
      const kv = (
        await c.runAndReadAll(`SELECT decode(value) AS v FROM parquet_kv_metadata('${f}') WHERE decode(key) = 'geo'`)
      ).getRowObjectsJS();
      const geo = JSON.parse(String(kv[0].v));
      expect(geo.columns.geometry.encoding).toBe('WKB');
      expect(geo.columns.geometry.geometry_types.every((t: string) => t === 'Polygon' || t === 'MultiPolygon')).toBe(
        true,
      );
      const rows = (
        await c.runAndReadAll(`SELECT ring_id, radius_km, geometry::VARCHAR AS wkt FROM read_parquet('${f}')`)
      ).getRowObjectsJS();
      expect(rows.map((x) => x.ring_id)).toEqual(rings.features.map((x: any) => x.properties.ring_id));
      expect(rows.map((x) => x.radius_km)).toEqual(rings.features.map((x: any) => x.properties.radius_km));
      rows.forEach((x, k) =>
        expect(String(x.wkt)).toMatch(rings.features[k].geometry.type === 'Polygon' ? /^POLYGON/ : /^MULTIPOLYGON/),
      );
    } finally {
      c.closeSync();
      inst.closeSync();
    }
  });

  it('a file format without --out, or a format it does not write, is refused in one line', async () => {
    const noOut = await cli(['--db', db, 'events', 'live', '--format', 'arrow'], env);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/out: --format arrow writes a file: give it with --out FILE \[invalid_parameter\]/);
    const bad = await cli(['--db', db, 'events', 'live', '--format', 'xlsx', '--out', path.join(dir, 'x')], env);
    expect(bad.stderr).toMatch(/format: "xlsx" is not one of json, arrow, geoparquet, gpkg, fgb \[invalid_parameter\]/);
  });
});
