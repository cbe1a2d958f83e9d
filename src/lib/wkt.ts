/** GeoJSON -> WKT, to fill DuckDB's native GEOMETRY columns (a WKT string casts to GEOMETRY in core DuckDB). */
import type { Geometry, Position } from 'geojson';

const pos = (p: Position) => `${p[0]} ${p[1]}`;
const ring = (r: Position[]) => `(${r.map(pos).join(', ')})`;
const poly = (rings: Position[][]) => `(${rings.map(ring).join(', ')})`;

export function toWkt(g: Geometry): string {
  switch (g.type) {
    case 'Point':
      return `POINT (${pos(g.coordinates)})`;
    case 'Polygon':
      return `POLYGON ${poly(g.coordinates)}`;
    case 'MultiPolygon':
      return `MULTIPOLYGON (${g.coordinates.map(poly).join(', ')})`;
    case 'LineString':
      return `LINESTRING ${ring(g.coordinates)}`;
    default:
      throw new Error(`toWkt: unsupported geometry ${g.type}`);
  }
}
