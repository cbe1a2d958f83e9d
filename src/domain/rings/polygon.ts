/**
 * Alert-area rings (NWS polygons or the counties an alert names), and the polygon hygiene every ring
 * builder here shares: RFC 7946 §3.1.6 wants closed linear rings of >= 4 positions, exterior rings
 * counter-clockwise and holes clockwise. Orientation is judged by the planar shoelace sum over
 * [lng, lat], the same test RFC 7946 and turf's `rewind` use.
 */
import type { MultiPolygon, Polygon, Position } from 'geojson';
import type { Ring, RingInput } from '../event.js';

/**
 * One ring: the area the source drew, served as kind 'alert_area' (an alert's area) unless the source
 * names another kind (`ringKind`, e.g. 'forecast_cone' for NHC's cone of the storm centre's track).
 */
export function polygonRings(input: Extract<RingInput, { kind: 'polygon' }>): Ring[] {
  const geometry = normalizePolygon(input.geometry);
  if (!geometry) return [];
  return [
    { kind: input.ringKind ?? 'alert_area', label: input.label, threshold: null, unit: null, radiusKm: null, geometry },
  ];
}

/**
 * A copy of the geometry with closed rings, degenerate rings dropped, exterior CCW and holes CW;
 * null when nothing valid is left. A MultiPolygon of one part stays a MultiPolygon.
 */
export function normalizePolygon<G extends Polygon | MultiPolygon>(geometry: G): G | null {
  if (geometry.type === 'Polygon') {
    const rings = fixPolygon(geometry.coordinates);
    return rings ? ({ type: 'Polygon', coordinates: rings } as G) : null;
  }
  const parts = geometry.coordinates.map(fixPolygon).filter((p): p is Position[][] => p !== null);
  return parts.length ? ({ type: 'MultiPolygon', coordinates: parts } as G) : null;
}

function fixPolygon(rings: Position[][]): Position[][] | null {
  const out: Position[][] = [];
  for (let i = 0; i < rings.length; i++) {
    const ring = closeRing(rings[i]);
    if (!ring) {
      if (i === 0) return null; // no exterior, no polygon
      continue;
    }
    const ccw = signedArea(ring) > 0;
    const wantCcw = i === 0;
    out.push(ccw === wantCcw ? ring : ring.slice().reverse());
  }
  return out;
}

function closeRing(ring: Position[]): Position[] | null {
  const pts = ring.filter((p) => Number.isFinite(p[0]) && Number.isFinite(p[1])).map((p) => [p[0], p[1]]);
  if (pts.length === 0) return null;
  const [first, last] = [pts[0], pts[pts.length - 1]];
  if (first[0] !== last[0] || first[1] !== last[1]) pts.push([first[0], first[1]]);
  if (pts.length < 4 || signedArea(pts) === 0) return null;
  return pts;
}

/** Twice the planar signed area; > 0 means counter-clockwise. */
export function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
    sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return sum;
}

/**
 * A ring that crosses the antimeridian (a storm or an Aleutian quake near 180°) comes out of the geodesic
 * helpers with longitudes wrapped into [−180, 180), i.e. one edge jumping across the whole map: a
 * self-crossing polygon for every GIS tool. RFC 7946 §3.1.9 says to cut such a geometry in two at the
 * antimeridian; we unwrap each polygon's longitudes (consecutive vertices never more than 180° apart),
 * clip it against the meridian (Sutherland–Hodgman on one line, linear in [lng, lat], which is how
 * GeoJSON edges are drawn) and shift the far part back by 360°, giving a MultiPolygon whose parts meet at
 * ±180. Geometries that do not cross come back as they are. A ring around a pole (longitudes that do not
 * close) is left alone: no ring we draw is that large.
 */
export function splitAtAntimeridian(geometry: Polygon | MultiPolygon): Polygon | MultiPolygon {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const split = polygons.map(splitPolygon);
  if (split.every((parts) => parts === null)) return geometry;
  const parts = split.flatMap((p, i) => p ?? [polygons[i]]);
  return normalizePolygon<MultiPolygon>({ type: 'MultiPolygon', coordinates: parts }) ?? geometry;
}

/** The parts of one polygon on either side of the antimeridian, or null when it does not cross. */
function splitPolygon(rings: Position[][]): Position[][][] | null {
  const unwrapped = rings.map(unwrap);
  if (unwrapped.some((r) => r === null)) return null; // a ring around a pole
  const all = (unwrapped as Position[][]).flat();
  const lngs = all.map((p) => p[0]);
  const [min, max] = [Math.min(...lngs), Math.max(...lngs)];
  if (min >= -180 && max <= 180) return null;
  // Put the crossing at +180: a polygon reaching below −180 is shifted east by a whole turn first.
  const shift = max > 180 ? 0 : 360;
  const shifted = (unwrapped as Position[][]).map((r) => r.map(([x, y]) => [x + shift, y]));
  const parts: Position[][][] = [];
  for (const side of ['west', 'east'] as const) {
    const inside = side === 'west' ? (x: number) => x <= 180 : (x: number) => x >= 180;
    const back = side === 'west' ? 0 : -360;
    const clipped = shifted.map((r) => clipAtMeridian(r, inside)).map((r) => r.map(([x, y]) => [round9(x + back), y]));
    const [exterior, ...holes] = clipped;
    if (exterior.length < 3) continue;
    parts.push([exterior, ...holes.filter((h) => h.length >= 3)]);
  }
  return parts;
}

/** Longitudes made continuous along the ring; null when they do not come back to the start (a pole inside). */
function unwrap(ring: Position[]): Position[] | null {
  const out: Position[] = [];
  for (const [x, y] of ring) {
    const prev = out[out.length - 1];
    let lng = x;
    if (prev) while (lng - prev[0] > 180) lng -= 360;
    if (prev) while (lng - prev[0] < -180) lng += 360;
    out.push([lng, y]);
  }
  return out.length > 0 && Math.abs(out[out.length - 1][0] - out[0][0]) < 1e-9 ? out : null;
}

/** Sutherland–Hodgman against the meridian 180°: the part of a closed ring on the `inside` side, open. */
function clipAtMeridian(ring: Position[], inside: (x: number) => boolean): Position[] {
  const pts = ring.slice(0, -1);
  const out: Position[] = [];
  for (let i = 0; i < pts.length; i++) {
    const a = pts[i];
    const b = pts[(i + 1) % pts.length];
    const [ina, inb] = [inside(a[0]), inside(b[0])];
    if (ina) out.push(a);
    if (ina !== inb && a[0] !== b[0]) {
      const t = (180 - a[0]) / (b[0] - a[0]);
      if (t > 0 && t < 1) out.push([180, a[1] + t * (b[1] - a[1])]);
    }
  }
  return out;
}

const round9 = (x: number) => Math.round(x * 1e9) / 1e9;
