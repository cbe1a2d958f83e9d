/** One peril's score at a place, from the committed baseline grid (the place-pinning tests). */
import { loadBaselineGrid } from '../../src/reference-data/load-baseline.js';
import type { PerilScore } from '../../src/domain/scoring/peril-score.js';
import type { Peril } from '../../src/domain/scoring/perils.js';
import { scorePoint } from '../../src/domain/scoring/score-point.js';

export const baselineGrid = loadBaselineGrid();

export function scoreAt(lat: number, lng: number, peril: Peril): PerilScore {
  const r = scorePoint(baselineGrid, { lat, lng, perils: [peril], scenario: 'baseline' });
  if (!r.covered) throw new Error(`${lat},${lng} not covered`);
  return r.perils[0];
}
