/** Small geodesy helpers on WGS84 [lng, lat]; distances in km. */
import type { Polygon, Position } from 'geojson';

/** IUGG mean Earth radius (km), as in docs/methods.md#trigger-observations. */
export const EARTH_RADIUS_KM = 6371.0088;
export const KM_PER_NM = 1.852;

const toRad = (deg: number) => (deg * Math.PI) / 180;
const toDeg = (rad: number) => (rad * 180) / Math.PI;

/**
 * The round 6371 km of CLIMADA's track generator, which the synthetic hurricane track set follows (its
 * random walk and hourly tracks): the committed model packages were built with it, and the IUGG radius
 * would move every along-track distance by 1.4 ppm.
 */
export const TRACK_EARTH_RADIUS_KM = 6371;

/** Great-circle (haversine) distance in km. */
export function haversineKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = toRad(lat2 - lat1);
  const dLng = toRad(lng2 - lng1);
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

const RAD = Math.PI / 180;

/**
 * Great-circle (haversine) distance in km on the track set's sphere (TRACK_EARTH_RADIUS_KM), with degrees
 * scaled by π/180 once: the hurricane track set's distances, bit for bit as its packages were built.
 */
export function trackGreatCircleKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const h =
    Math.sin(((lat2 - lat1) * RAD) / 2) ** 2 +
    Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(((lng2 - lng1) * RAD) / 2) ** 2;
  return 2 * TRACK_EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The point reached from (lat, lng) after distanceKm on initial bearing bearingDeg (clockwise from north). */
export function destination(lat: number, lng: number, distanceKm: number, bearingDeg: number): Position {
  const δ = distanceKm / EARTH_RADIUS_KM;
  const θ = toRad(bearingDeg);
  const φ1 = toRad(lat);
  const λ1 = toRad(lng);
  const φ2 = Math.asin(Math.sin(φ1) * Math.cos(δ) + Math.cos(φ1) * Math.sin(δ) * Math.cos(θ));
  const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(δ) * Math.cos(φ1), Math.cos(δ) - Math.sin(φ1) * Math.sin(φ2));
  const lngOut = ((toDeg(λ2) + 540) % 360) - 180;
  return [round6(lngOut), round6(toDeg(φ2))];
}

/**
 * A geodesic circle as a closed GeoJSON Polygon, counter-clockwise exterior (RFC 7946 right-hand rule).
 * Bearings run clockwise, so we walk them in reverse to get a counter-clockwise ring.
 */
export function circlePolygon(lat: number, lng: number, radiusKm: number, steps = 64): Polygon {
  const ring: Position[] = [];
  for (let i = 0; i < steps; i++) ring.push(destination(lat, lng, radiusKm, 360 - (i * 360) / steps));
  ring.push(ring[0]);
  return { type: 'Polygon', coordinates: [ring] };
}

/** Bounding box [minLng, minLat, maxLng, maxLat] of any coordinate nesting. */
export function bboxOf(coords: unknown): [number, number, number, number] {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const walk = (c: unknown): void => {
    if (Array.isArray(c) && typeof c[0] === 'number') {
      const [x, y] = c as number[];
      if (x < box[0]) box[0] = x;
      if (y < box[1]) box[1] = y;
      if (x > box[2]) box[2] = x;
      if (y > box[3]) box[3] = y;
    } else if (Array.isArray(c)) for (const k of c) walk(k);
  };
  walk(coords);
  return box;
}

export function round6(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
