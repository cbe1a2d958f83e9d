/**
 * A county's building value as a mix of the model's HAZUS building types, for checking the model's losses
 * against FEMA's National Risk Index, whose exposure is a county's total building value (BUILDVALUE) with no
 * breakdown by construction. The mean damage ratio of the mix at each intensity bin is the value-weighted
 * mean of the model's own vulnerability tables (vulnerability-table.ts, the same tables the model package
 * writes) with the footprint's intensity uncertainty folded in as the package folds it (gust-spread.ts).
 *
 * The shares are our judgement, round numbers stated so they can be checked and changed, not fitted to
 * any target (docs/validation.md, "Hurricane losses"): residential about 70 % of building value and
 * commercial/industrial about 30 %; wood frame for about nine in ten single-family homes outside Florida and
 * concrete block for about seven in ten in Florida. HAZUS spreads its general building stock the same way
 * (by occupancy, then by construction per region), but its tables are not in the shared data, so these are
 * shares in that spirit, not a copy of them. Era, roof and shutters are left unknown (the tables then
 * average HAZUS's configurations, as for an OED row that does not give them); terrain is the model's
 * default (suburban, z0 0.35 m).
 */
import { intensityBins } from './domain/intensity-bins.js';
import { gustBinProbabilities } from './domain/footprint/intensity-uncertainty.js';
import { buildingType, COVERAGE_TYPES, DEFAULT_TERRAIN_CM } from './domain/vulnerability/building-types.js';
import { vulnerabilityTable, type HazusIndex } from './domain/vulnerability/vulnerability-table.js';

/** HAZUS building type key -> share of building value (sums to 1). */
export type BuildingMix = Record<string, number>;

/** Outside Florida: wood-frame housing, masonry and concrete commercial. */
export const MIX_US: BuildingMix = {
  'W.SF': 0.55,
  'M.SF': 0.05,
  MH: 0.02,
  'W.MUH': 0.07,
  'M.MUH': 0.03,
  'M.LRM.1': 0.05,
  'C.ECB.L': 0.1,
  'S.PMB': 0.08,
  'M.LRI': 0.05,
};

/** Florida: the same occupancy split, single-family and multi-unit housing mostly concrete block. */
export const MIX_FLORIDA: BuildingMix = {
  'W.SF': 0.18,
  'M.SF': 0.42,
  MH: 0.02,
  'W.MUH': 0.04,
  'M.MUH': 0.06,
  'M.LRM.1': 0.05,
  'C.ECB.L': 0.1,
  'S.PMB': 0.08,
  'M.LRI': 0.05,
};

export function mixFor(stateAbbr: string): BuildingMix {
  return stateAbbr === 'FL' ? MIX_FLORIDA : MIX_US;
}

/** Mean building damage ratio of one building type at each intensity bin (index bin id − 1), gust spread folded in. */
export function typeMeanDamageByBin(typeKey: string, hazus: HazusIndex): number[] {
  const table = vulnerabilityTable({ buildingType: buildingType(typeKey), era: 0, known: {}, terrainCm: DEFAULT_TERRAIN_CM, coverageType: COVERAGE_TYPES.building }, hazus);
  return intensityBins().map((b, i) => {
    if (b.representativeMph <= 0) return table.meanDamageRatio[i];
    let m = 0;
    for (const { bin, probability } of gustBinProbabilities(b.representativeMph)) m += probability * table.meanDamageRatio[bin - 1];
    return m;
  });
}

/** Value-weighted mean damage ratio of a mix at each intensity bin. */
export function mixMeanDamageByBin(mix: BuildingMix, hazus: HazusIndex): number[] {
  const total = Object.values(mix).reduce((a, b) => a + b, 0);
  if (Math.abs(total - 1) > 1e-9) throw new Error(`building mix shares sum to ${total}, not 1; fix the mix`);
  const out = intensityBins().map(() => 0);
  for (const [key, share] of Object.entries(mix)) {
    typeMeanDamageByBin(key, hazus).forEach((m, i) => (out[i] += share * m));
  }
  return out;
}
