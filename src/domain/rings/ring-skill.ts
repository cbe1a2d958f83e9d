/**
 * How well MMI rings match a reference map of observed or ShakeMap intensity (docs/validation.md, "Earthquake
 * rings"). The reference is a set of weighted samples (ShakeMap grid nodes, DYFI cells, points of a contour
 * map), each with its MMI and a weight proportional to the area it stands for. For a ring at level L:
 *   recall    = reference area with MMI >= L that lies inside the ring / all reference area with MMI >= L
 *   precision = reference area with MMI >= L inside the ring / all reference area inside the ring
 * Only the reference's own extent counts, so a ring reaching past the map is neither rewarded nor punished
 * there. Pure.
 */
import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon } from 'geojson';
import { bboxOf } from '../../lib/geo.js';
import type { Ring } from '../event.js';

export interface IntensitySample {
  lng: number;
  lat: number;
  mmi: number;
  /** Relative area the sample stands for (grid node: cos(lat); DYFI cell: its area). */
  weight: number;
}

export interface RingSkill {
  mmi: number;
  /** null when the reference never reaches the level. */
  recall: number | null;
  /** null when there is no ring at this level (or it covers no sample). */
  precision: number | null;
  /** Ring area over reference area at the level (1 = same size); null as above. */
  sizeRatio: number | null;
}

export function ringSkill(rings: Ring[], reference: IntensitySample[], levels: readonly number[]): RingSkill[] {
  return levels.map((mmi) => {
    const ring = rings.find((r) => r.kind === 'mmi' && r.threshold === mmi);
    const inside = ring ? insideTest(ring.geometry) : () => false;
    let above = 0;
    let hit = 0;
    let covered = 0;
    for (const s of reference) {
      const isAbove = s.mmi >= mmi;
      const isInside = inside(s.lng, s.lat);
      if (isAbove) above += s.weight;
      if (isInside) covered += s.weight;
      if (isAbove && isInside) hit += s.weight;
    }
    return {
      mmi,
      recall: above > 0 ? hit / above : null,
      precision: covered > 0 ? hit / covered : null,
      sizeRatio: above > 0 && covered > 0 ? covered / above : null,
    };
  });
}

/** Point-in-ring with a bbox prefilter per polygon part (ShakeMap rings have dozens of small parts). */
function insideTest(geometry: Polygon | MultiPolygon): (lng: number, lat: number) => boolean {
  const parts = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  const indexed = parts.map((coords) => ({
    box: bboxOf(coords),
    poly: { type: 'Polygon' as const, coordinates: coords },
  }));
  return (lng, lat) =>
    indexed.some(
      ({ box, poly }) =>
        lng >= box[0] && lng <= box[2] && lat >= box[1] && lat <= box[3] && booleanPointInPolygon([lng, lat], poly),
    );
}
