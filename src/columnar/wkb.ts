/**
 * Well-Known Binary (OGC Simple Features, ISO 19125) for the geometries events carry: points, polygons and
 * multipolygons, little-endian, 2D. GeoArrow (`geoarrow.wkb`) and GeoParquet store geometry this way, so
 * geopandas, GDAL and DuckDB read it without a text parse. The format is small enough to write here:
 * byte order (1 = little-endian), a uint32 type (1 Point, 3 Polygon, 6 MultiPolygon), then counts and
 * float64 coordinates.
 */
import type { Geometry, Position } from 'geojson';

const POINT = 1;
const POLYGON = 3;
const MULTIPOLYGON = 6;

export function toWkb(g: Geometry): Uint8Array {
  const size = sizeOf(g);
  const buf = Buffer.alloc(size);
  const end = write(buf, 0, g);
  if (end !== size) throw new Error(`WKB size ${end} is not the ${size} bytes planned`);
  return new Uint8Array(buf.buffer, buf.byteOffset, size);
}

const ringsSize = (rings: Position[][]) => 4 + rings.reduce((n, r) => n + 4 + 16 * r.length, 0);

function sizeOf(g: Geometry): number {
  switch (g.type) {
    case 'Point':
      return 5 + 16;
    case 'Polygon':
      return 5 + ringsSize(g.coordinates);
    case 'MultiPolygon':
      return 5 + 4 + g.coordinates.reduce((n, p) => n + 5 + ringsSize(p), 0);
    default:
      throw new Error(`no WKB for a ${g.type}: events carry points, polygons and multipolygons`);
  }
}

function header(buf: Buffer, at: number, type: number): number {
  buf[at] = 1;
  buf.writeUInt32LE(type, at + 1);
  return at + 5;
}

function rings(buf: Buffer, at: number, rs: Position[][]): number {
  at = buf.writeUInt32LE(rs.length, at);
  for (const r of rs) {
    at = buf.writeUInt32LE(r.length, at);
    for (const p of r) {
      at = buf.writeDoubleLE(p[0], at);
      at = buf.writeDoubleLE(p[1], at);
    }
  }
  return at;
}

function write(buf: Buffer, at: number, g: Geometry): number {
  switch (g.type) {
    case 'Point':
      at = header(buf, at, POINT);
      at = buf.writeDoubleLE(g.coordinates[0], at);
      return buf.writeDoubleLE(g.coordinates[1], at);
    case 'Polygon':
      return rings(buf, header(buf, at, POLYGON), g.coordinates);
    case 'MultiPolygon':
      at = buf.writeUInt32LE(g.coordinates.length, header(buf, at, MULTIPOLYGON));
      for (const p of g.coordinates) at = rings(buf, header(buf, at, POLYGON), p);
      return at;
    default:
      throw new Error(`no WKB for a ${g.type}`);
  }
}
