/**
 * Point-in-ring and point-to-ring distance over the stored ring polygons (GeoJSON Polygon / MultiPolygon in
 * lng/lat, as src/domain/rings builds them and the rings table keeps them). Pure functions, no I/O.
 *
 * Inside: even-odd ray casting over every linear ring of a polygon (so holes are outside), any polygon of a
 * MultiPolygon. Distance: 0 inside; otherwise the shortest distance to an edge on a local equirectangular
 * projection around the point (error well under 1 % within a few hundred km, which is the reach of a saved
 * location's radius), in km.
 */
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { EARTH_RADIUS_KM } from '../../lib/geo.js';

export type Area = Polygon | MultiPolygon;

function polygonsOf(g: Area): Position[][][] {
  return g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
}

function inLinearRings(lng: number, lat: number, rings: Position[][]): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const xi = ring[i][0],
        yi = ring[i][1],
        xj = ring[j][0],
        yj = ring[j][1];
      if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

export function pointInArea(lng: number, lat: number, g: Area): boolean {
  for (const p of polygonsOf(g)) if (inLinearRings(lng, lat, p)) return true;
  return false;
}

/** A ring prepared for many point tests: its polygons and bbox. */
export interface PreparedArea {
  polygons: Position[][][];
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

export function prepareArea(g: Area): PreparedArea {
  let minLng = Infinity,
    minLat = Infinity,
    maxLng = -Infinity,
    maxLat = -Infinity;
  const polygons = polygonsOf(g);
  for (const p of polygons)
    for (const r of p)
      for (const [x, y] of r) {
        if (x < minLng) minLng = x;
        if (x > maxLng) maxLng = x;
        if (y < minLat) minLat = y;
        if (y > maxLat) maxLat = y;
      }
  return { polygons, minLng, minLat, maxLng, maxLat };
}

export function pointInPrepared(lng: number, lat: number, a: PreparedArea): boolean {
  if (lng < a.minLng || lng > a.maxLng || lat < a.minLat || lat > a.maxLat) return false;
  for (const p of a.polygons) if (inLinearRings(lng, lat, p)) return true;
  return false;
}

const KM_PER_DEG = (Math.PI / 180) * EARTH_RADIUS_KM;

/** Distance in km from the point to the area: 0 inside. */
export function distanceToAreaKm(lng: number, lat: number, a: PreparedArea): number {
  if (pointInPrepared(lng, lat, a)) return 0;
  const kx = KM_PER_DEG * Math.cos((lat * Math.PI) / 180);
  const ky = KM_PER_DEG;
  let best = Infinity;
  for (const p of a.polygons)
    for (const ring of p) {
      for (let i = 0; i + 1 < ring.length; i++) {
        // Segment in km around the point (the point is the origin); longitudes unwrapped across the antimeridian.
        const ax = wrap(ring[i][0] - lng) * kx,
          ay = (ring[i][1] - lat) * ky;
        const bx = wrap(ring[i + 1][0] - lng) * kx,
          by = (ring[i + 1][1] - lat) * ky;
        const dx = bx - ax,
          dy = by - ay;
        const len2 = dx * dx + dy * dy;
        const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
        const d = Math.hypot(ax + t * dx, ay + t * dy);
        if (d < best) best = d;
      }
    }
  return best;
}

const wrap = (d: number) => (d > 180 ? d - 360 : d < -180 ? d + 360 : d);

/** Degrees of latitude and longitude that `km` spans at `lat` (for a bbox prefilter around a point). */
export function degreesAround(lat: number, km: number): { dLat: number; dLng: number } {
  const dLat = km / KM_PER_DEG;
  const c = Math.cos((Math.min(89, Math.abs(lat)) * Math.PI) / 180);
  return { dLat, dLng: Math.min(180, km / (KM_PER_DEG * c)) };
}
