/**
 * River-gauge flood categories and rings. NWS categories (docs/methods.md#flood-rings; NWS Manual 10-950):
 * Action (prepare), Minor (= flood stage), Moderate, Major, each a stage in feet at the gauge.
 *
 * The rings are NOT an inundation map. Without the river's geometry and a FIM/HAND depth grid we draw
 * one circle around the gauge per category the current stage has reached, as a stand-in for "the
 * reach near this gauge": 1 km at action, 2 km at minor (docs/methods.md#flood-rings: river reach +- 2 km), 5 km at
 * moderate and 10 km at major [judgement: a wider reach floods as stage rises]. Outermost last.
 */
import type { FloodStages, Ring, RingInput } from '../event.js';
import { circlePolygon } from '../../lib/geo.js';

export type FloodCategory = 'major' | 'moderate' | 'minor' | 'action' | 'below_action' | 'below_flood' | 'unknown';

export const FLOOD_CATEGORY_LABEL: Record<FloodCategory, string> = {
  major: 'major flood',
  moderate: 'moderate flood',
  minor: 'minor flood',
  action: 'action stage',
  below_action: 'below action stage',
  below_flood: 'below flood stage', // the NWS defines no action stage here
  unknown: 'flood stages unknown',
};

/** Reach radius (km) per category reached, innermost first. */
const REACH: {
  category: 'action' | 'minor' | 'moderate' | 'major';
  stage: keyof FloodStages;
  radiusKm: number;
  name: string;
}[] = [
  { category: 'action', stage: 'actionFt', radiusKm: 1, name: 'Action stage' },
  { category: 'minor', stage: 'floodFt', radiusKm: 2, name: 'Minor flood' },
  { category: 'moderate', stage: 'moderateFt', radiusKm: 5, name: 'Moderate flood' },
  { category: 'major', stage: 'majorFt', radiusKm: 10, name: 'Major flood' },
];

/** The highest category the stage has reached; undefined categories are passed over. */
export function floodCategory(stageFt: number | null, s: FloodStages): FloodCategory {
  if (stageFt === null || !Number.isFinite(stageFt)) return 'unknown';
  if (s.actionFt === null && s.floodFt === null && s.moderateFt === null && s.majorFt === null) return 'unknown';
  for (let i = REACH.length - 1; i >= 0; i--) {
    const t = s[REACH[i].stage];
    if (t !== null && stageFt >= t) return REACH[i].category;
  }
  return s.actionFt !== null ? 'below_action' : 'below_flood';
}

export function gaugeRings(input: Extract<RingInput, { kind: 'gauge' }>, center: { lat: number; lng: number }): Ring[] {
  const { stageFt, stages } = input;
  if (stageFt === null || !Number.isFinite(stageFt)) return [];
  const rings: Ring[] = [];
  for (const r of REACH) {
    const t = stages[r.stage];
    if (t === null || stageFt < t) continue;
    rings.push({
      kind: 'flood_reach',
      label: `${r.name} (stage >= ${t} ft): gauge vicinity within ${r.radiusKm} km, not an inundation map`,
      threshold: t,
      unit: 'ft',
      radiusKm: r.radiusKm,
      geometry: circlePolygon(center.lat, center.lng, r.radiusKm),
    });
  }
  return rings;
}
