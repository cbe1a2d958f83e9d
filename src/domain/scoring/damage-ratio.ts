/**
 * An expected annual damage ratio (EADR) per peril and cell: the expected yearly building loss as a share of
 * building value (1/yr), on one scale for every peril whose data supports it (docs/contract.md#scores: score_components
 * keeps "an expected annual damage ratio comparable across perils"). Scores are not comparable across
 * perils (absolute vs relative, docs/scoring.md §1); this is, so the free tier's default peril is picked on
 * it. docs/scoring.md §1.4 has the method; the calibration below is re-measured by its test.
 *
 * The common scale is FEMA NRI's expected annual building loss, EAL_B / building value, where NRI computes
 * EAL = exposure × annualized frequency × historic loss ratio for every hazard alike (docs/methods.md#reference-products):
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
import { emanuelMdr, pagerLossRate } from './score-math.js';

/**
 * k per catalog peril (catalog λ_damaging per year, per unit of NRI building loss rate) [measured from the
 * committed grid and NRI v1.20 NRI_Table_States.csv; src/domain/scoring/damage-ratio.test.ts recomputes
 * them]. NRI hazards: HRCN, CFLD (coastal flooding, for surge), ERQK, TRND, WFIR.
 */
export const NRI_CALIBRATION: Readonly<
  Record<'hurricane_wind' | 'storm_surge' | 'earthquake' | 'tornado' | 'wildfire', { nri: string; k: number }>
> = {
  hurricane_wind: { nri: 'HRCN', k: 23.71 },
  storm_surge: { nri: 'CFLD', k: 171.6 },
  earthquake: { nri: 'ERQK', k: 6.211 },
  tornado: { nri: 'TRND', k: 1.776 },
  wildfire: { nri: 'WFIR', k: 12.24 },
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

/**
 * The expected annual damage ratio of a reference building from the damage functions of docs/methods.md#damage-functions,
 * integrated over the site's hazard curve (docs/methods.md#score-mappings: EALR = Σ rate · MDR(I)): the curve's rates between
 * stored levels times the mean damage ratio at the band's midpoint. docs/scoring.md §1.5.
 *  - earthquake: USGS PAGER US economic loss rate Φ(ln(MMI/11.5055)/0.15) on MMI bands V–VI, …, VIII–IX and
 *    IX+ (midpoints 5.5 … 9.5);
 *  - hurricane_wind: Emanuel (2011) with the US V_half 86.0 m/s on the bands 64–80, 80–96, 96–113, 113–137
 *    and 137+ kt (midpoints 72, 88, 104.5, 125, and 145 for the open band [judgement]);
 *  - tornado: the same Emanuel curve on the EF 3-s gust at the band centre ÷ 1.28 (docs/methods.md#damage-functions): EF1–EF2
 *    paths at 110.5 mph, EF3+ at EF3's centre 150.5 mph [judgement: most EF3+ paths are EF3];
 *  - wildfire: 0.5 of the building inside a burned perimeter (docs/methods.md#damage-functions, judgement there) × burn probability.
 * Storm surge, flood, heat, drought and winter storm have no intensity in the grid, so none (null).
 */
export const REFERENCE_BUILDING_BASIS: Readonly<Record<Peril, string | null>> = {
  earthquake:
    'sum over MMI bands of rate x PAGER US economic loss rate (theta 11.5055, beta 0.15) at the band midpoint',
  hurricane_wind:
    'sum over wind bands 64/80/96/113/137 kt of rate x Emanuel (2011) MDR, V_half 86.0 m/s, at the band midpoint',
  tornado: 'EF1-EF2 and EF3+ path-crossing rates x Emanuel (2011) MDR at the EF 3-s gust band centre / 1.28',
  wildfire: 'annual burn probability x 0.5 (structure loss inside a perimeter)',
  storm_surge: null,
  riverine_flood: null,
  extreme_heat: null,
  drought: null,
  winter_storm: null,
};

const MPH_TO_KT = 0.868976;
// The band midpoints are all above 0, where pagerLossRate is Φ(ln(MMI/θ)/β) itself.
const pagerAt = pagerLossRate;
const EQ_BANDS = [5.5, 6.5, 7.5, 8.5, 9.5].map(pagerAt);
const HU_BANDS = [72, 88, 104.5, 125, 145].map(emanuelMdr);
const TOR_EF12 = emanuelMdr((110.5 / 1.28) * MPH_TO_KT);
const TOR_EF3 = emanuelMdr((150.5 / 1.28) * MPH_TO_KT);

/** Σ_k (λ_k − λ_{k+1}) · mdr_k over an exceedance ladder (λ_{n} = 0 past the last rung). */
function bandSum(ladder: number[], mdr: readonly number[]): number {
  let s = 0;
  for (let k = 0; k < ladder.length; k++) {
    const hi = k + 1 < ladder.length ? ladder[k + 1] : 0;
    s += Math.max(0, ladder[k] - hi) * mdr[k];
  }
  return s;
}

/** The reference building's EADR (1/yr) at a cell under the climate frequency multiplier; NaN where none. */
export function referenceBuildingEadr(
  grid: HazardGrid,
  cell: number,
  peril: Peril,
  frequencyMultiplier: number,
): number {
  const ch = (field: string) => grid.channels.get(`${peril}.${field}`)?.[cell] ?? NaN;
  let v: number;
  switch (peril) {
    case 'earthquake':
      v = bandSum(['lambda_mmi5', 'lambda_damaging', 'lambda_mmi7', 'lambda_severe', 'lambda_mmi9'].map(ch), EQ_BANDS);
      break;
    case 'hurricane_wind':
      v = bandSum(
        ['lambda_damaging', 'lambda_80kt', 'lambda_severe', 'lambda_113kt', 'lambda_137kt'].map(ch),
        HU_BANDS,
      );
      break;
    case 'tornado':
      v = bandSum([ch('lambda_damaging'), ch('lambda_severe')], [TOR_EF12, TOR_EF3]);
      break;
    case 'wildfire':
      v = ch('lambda_damaging') * 0.5;
      break;
    default:
      return NaN;
  }
  return v * frequencyMultiplier;
}

/** docs/methods.md#score-mappings S_risk = clamp(2·(log10 EALR + 6), 0, 10): 1e-3/yr → 6, 1e-2/yr → 8; comparable across perils. */
export function riskScore(eadr: number): number {
  if (!(eadr > 0)) return 0;
  return Math.min(10, Math.max(0, 2 * (Math.log10(eadr) + 6)));
}
