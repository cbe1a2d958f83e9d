/**
 * Where a box lies against a polygon, decided without clipping: when no edge of the polygon (any part, holes
 * included) comes near the box, the polygon's boundary never enters it, so the box (and whatever lies in it)
 * is all inside or all outside, and its centre says which. Conservative: an edge whose own bounding box meets
 * the (slightly widened) box answers 'crossed', and the caller clips. Planar, in the coordinates given
 * (lon/lat), as the clipping is.
 */
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon } from 'geojson';

/** Widening of the box, in degrees: an edge a hair away from it is treated as touching it. */
const HAIR = 1e-9;

export function boxAgainst(
  polygon: Polygon | MultiPolygon,
  box: [number, number, number, number],
): 'inside' | 'outside' | 'crossed' {
  const parts = polygon.type === 'Polygon' ? [polygon.coordinates] : polygon.coordinates;
  const [minX, minY, maxX, maxY] = [box[0] - HAIR, box[1] - HAIR, box[2] + HAIR, box[3] + HAIR];
  for (const part of parts)
    for (const ring of part)
      for (let i = 1; i < ring.length; i++) {
        const [x1, y1] = ring[i - 1];
        const [x2, y2] = ring[i];
        if (
          Math.max(x1, x2) >= minX &&
          Math.min(x1, x2) <= maxX &&
          Math.max(y1, y2) >= minY &&
          Math.min(y1, y2) <= maxY
        )
          return 'crossed';
      }
  const centre = [(box[0] + box[2]) / 2, (box[1] + box[3]) / 2];
  return booleanPointInPolygon(centre, polygon) ? 'inside' : 'outside';
}
