/**
 * An expected annual damage ratio (EADR) per peril and cell: the expected yearly building loss as a share of
 * building value (1/yr), on one scale for every peril whose data supports it (CONTRACT §6: score_components
 * keeps "an expected annual damage ratio comparable across perils"). Scores are not comparable across
 * perils (absolute vs relative, docs/scoring.md §1); this is, so the free tier's default peril is picked on
 * it. docs/scoring.md §1.4 has the method; the calibration below is re-measured by its test.
 *
 * The common scale is FEMA NRI's expected annual building loss, EAL_B / building value, where NRI computes
 * EAL = exposure × annualized frequency × historic loss ratio for every hazard alike (models.md §1.1):
 *  - catalog perils: EADR = λ_damaging(site) / k, with k = the median over states of (state-mean catalog
 *    λ_damaging) / (NRI <HZ>_EALB / BUILDVALUE), over states where that NRI rate is >= 1e-5/yr (the
 *    peril matters there). Our catalogs give the shape across places, NRI the level of loss.
 *  - riverine flood and winter storm: the NRI building loss rate the grid already holds (the relative
 *    score's loss half, `frequency.relative.loss_rate`).
 *  - extreme heat and drought: none. NRI puts drought losses on agriculture only and heat losses on
 *    people; the grid holds those rates (ALRA, ALRP), which are not building damage ratios.
 */
import type { HazardGrid } from './grid.js';
import type { Peril } from './perils.js';

/**
 * k per catalog peril (catalog λ_damaging per year, per unit of NRI building loss rate) [measured from the
 * committed grid and NRI v1.20 NRI_Table_States.csv; src/domain/scoring/damage-ratio.test.ts recomputes
 * them]. NRI hazards: HRCN, CFLD (coastal flooding, for surge), ERQK, TRND, WFIR.
 */
export const NRI_CALIBRATION: Readonly<Record<'hurricane_wind' | 'storm_surge' | 'earthquake' | 'tornado' | 'wildfire', { nri: string; k: number }>> = {
  hurricane_wind: { nri: 'HRCN', k: 23.71 },
  storm_surge: { nri: 'CFLD', k: 171.6 },
  earthquake: { nri: 'ERQK', k: 3.176 },
  tornado: { nri: 'TRND', k: 1.776 },
  wildfire: { nri: 'WFIR', k: 12.44 },
};
/** States whose NRI building loss rate for the hazard is below this do not calibrate k [judgement]. */
export const CALIBRATION_MIN_RATE = 1e-5;

export const DAMAGE_RATIO_BASIS: Readonly<Record<Peril, string>> = {
  hurricane_wind: `lambda_damaging / ${NRI_CALIBRATION.hurricane_wind.k} (catalog rate on NRI HRCN building-loss level)`,
  storm_surge: `lambda_damaging / ${NRI_CALIBRATION.storm_surge.k} (catalog rate on NRI CFLD coastal-flooding building-loss level)`,
  earthquake: `lambda_damaging / ${NRI_CALIBRATION.earthquake.k} (catalog rate on NRI ERQK building-loss level)`,
  tornado: `lambda_damaging / ${NRI_CALIBRATION.tornado.k} (catalog rate on NRI TRND building-loss level)`,
  wildfire: `lambda_damaging / ${NRI_CALIBRATION.wildfire.k} (catalog rate on NRI WFIR building-loss level)`,
  riverine_flood: 'NRI IFLD_ALRB x IFLD_EXP_AREA/AREA (the state building loss rate, flood-exposed share)',
  winter_storm: 'NRI WNTW_ALRB (the state building loss rate)',
  extreme_heat: 'none: NRI heat-wave losses are to people (HWAV_ALRP), not buildings',
  drought: 'none: NRI drought losses are to agriculture only (DRGT_ALRA), not buildings',
};

/**
 * The EADR (1/yr) at a cell under a climate frequency multiplier (the same one the score applies to
 * λ_damaging and the NRI loss rate), or NaN where the peril has none or the grid has no value.
 */
export function damageRatioValue(grid: HazardGrid, cell: number, peril: Peril, frequencyMultiplier: number): number {
  const ch = (field: string) => grid.channels.get(`${peril}.${field}`)?.[cell] ?? NaN;
  switch (peril) {
    case 'riverine_flood':
    case 'winter_storm':
      return ch('loss_rate') * frequencyMultiplier;
    case 'extreme_heat':
    case 'drought':
      return NaN;
    default:
      return (ch('lambda_damaging') * frequencyMultiplier) / NRI_CALIBRATION[peril].k;
  }
}
