/**
 * The true union of a swath ring (docs/intelligence.md "Exposure", "So far"): a swath ring is the per-fix
 * polygons of one wind threshold side by side (src/portfolios/live-rings.ts), overlapping where consecutive
 * fixes overlap. Point-in-polygon tests read that as it is, but areas do not: summing them counts the
 * overlaps again and again. Population is apportioned by area, so it needs the union.
 *
 * The union is the swath clipped to a box around it: the polygon clipper behind @turf/intersect (polyclip-ts)
 * takes a MultiPolygon whose polygons overlap as the set they cover, and answers non-overlapping polygons.
 * No approximation: the same exact clipping the population apportionment already uses, no extra dependency.
 */
import { intersect } from '@turf/intersect';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';

const feature = (geometry: Polygon | MultiPolygon): Feature<Polygon | MultiPolygon> => ({
  type: 'Feature',
  geometry,
  properties: {},
});

/** A degree of margin, so no edge of the swath lies on the box's edge (a degenerate case for the clipper). */
const MARGIN_DEG = 1;

function boxAround(polygons: Position[][][]): Polygon {
  let minLng = Infinity,
    minLat = Infinity,
    maxLng = -Infinity,
    maxLat = -Infinity;
  for (const p of polygons)
    for (const r of p)
      for (const [x, y] of r) {
        minLng = Math.min(minLng, x);
        maxLng = Math.max(maxLng, x);
        minLat = Math.min(minLat, y);
        maxLat = Math.max(maxLat, y);
      }
  const [w, s, e, n] = [minLng - MARGIN_DEG, minLat - MARGIN_DEG, maxLng + MARGIN_DEG, maxLat + MARGIN_DEG];
  return {
    type: 'Polygon',
    coordinates: [
      [
        [w, s],
        [e, s],
        [e, n],
        [w, n],
        [w, s],
      ],
    ],
  };
}

/** Coordinates to 1e-7 degree (about a centimetre), which clears the clipper's rare floating-point failures. */
const rounded = (polygons: Position[][][]): Position[][][] =>
  polygons.map((p) => p.map((r) => r.map(([x, y]) => [Math.round(x * 1e7) / 1e7, Math.round(y * 1e7) / 1e7])));

/** The region the polygons cover, as non-overlapping polygons; a single polygon is returned as it is. */
export function unionOf(polygons: Position[][][]): Polygon | MultiPolygon {
  if (polygons.length === 1) return { type: 'Polygon', coordinates: polygons[0] };
  const clip = (ps: Position[][][]) =>
    intersect({
      type: 'FeatureCollection',
      features: [feature({ type: 'MultiPolygon', coordinates: ps }), feature(boxAround(ps))],
    });
  let out;
  try {
    out = clip(polygons);
  } catch {
    out = clip(rounded(polygons));
  }
  if (!out) throw new Error(`the union of a swath of ${polygons.length} polygons came out empty`);
  return out.geometry;
}
