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
  return [{ kind: input.ringKind ?? 'alert_area', label: input.label, threshold: null, unit: null, radiusKm: null, geometry }];
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
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return sum;
}
