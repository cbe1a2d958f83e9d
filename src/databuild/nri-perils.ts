/**
 * Perils without a public catalog in the shared data (riverine flood, extreme heat, drought, winter
 * storm) come from the NRI state table, and so do hurricane and earthquake where our catalogs do not
 * reach (docs/scoring.md). Per state:
 *   how often:    λ = EVNTS / (record years · counties in the state) · exposed share   (events per county-year)
 *   how damaging: the NRI expected annual loss rate · exposed share — ALRB (buildings) for flood and
 *                 winter weather, ALRP (population) for heat, which harms people rather than buildings,
 *                 ALRA (agriculture) for drought, NRI's only drought exposure.
 * "Exposed share" = EXP_AREA / AREA, which only matters for flood (the others cover whole states).
 * The score (score-math.ts relativeScore, peril-score.ts) averages the two on relative log scales whose
 * anchors are log10 of the 5th and 95th percentiles over the states, DC and territories [judgement]:
 * either alone misleads (event counts follow local warning criteria — Hawaii's summit blizzards make it
 * the most frequent "winter weather" state; loss rates follow exposure — Massachusetts' small farm sector
 * makes it a top drought-loss state), together they rank as NRI users would expect.
 */
import { nriNumber, type NriState } from '../reference-data/nri.js';

export interface NriPerilSpec {
  prefix: string;
  lossField: 'ALRB' | 'ALRP' | 'ALRA';
  useExposedShare: boolean;
}

export const NRI_PERILS = {
  riverine_flood: { prefix: 'IFLD', lossField: 'ALRB', useExposedShare: true },
  extreme_heat: { prefix: 'HWAV', lossField: 'ALRP', useExposedShare: false },
  drought: { prefix: 'DRGT', lossField: 'ALRA', useExposedShare: false },
  winter_storm: { prefix: 'WNTW', lossField: 'ALRB', useExposedShare: false },
} as const satisfies Record<string, NriPerilSpec>;

export interface StateValues {
  lambda: number; // events per county-year (× exposed share); NaN if NRI has none
  lossRate: number; // expected annual loss rate (× exposed share); NaN if NRI has none
}

export function nriStateValues(
  spec: NriPerilSpec,
  s: NriState | undefined,
  recordYears: number,
  countiesInState: number,
): StateValues {
  const area = nriNumber(s, 'AREA');
  const expArea = nriNumber(s, `${spec.prefix}_EXP_AREA`);
  const share = spec.useExposedShare ? (area > 0 && expArea >= 0 ? Math.min(1, expArea / area) : NaN) : 1;
  const events = nriNumber(s, `${spec.prefix}_EVNTS`);
  const lambda = countiesInState > 0 ? (events / (recordYears * countiesInState)) * share : NaN;
  return { lambda, lossRate: nriNumber(s, `${spec.prefix}_${spec.lossField}`) * share };
}

/** Linear-interpolated quantile (R type 7) of ascending values. */
export function quantile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.ceil(h);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (h - lo);
}

/** log10 of the 5th and 95th percentiles of the positive metrics. */
export function relativeAnchors(metrics: number[]): { lo: number; hi: number } {
  const logs = metrics
    .filter((m) => m > 0)
    .map(Math.log10)
    .sort((a, b) => a - b);
  return { lo: quantile(logs, 0.05), hi: quantile(logs, 0.95) };
}

/**
 * Catalog-to-NRI calibration for the fallback: the median over states of (state-mean catalog λ) / (NRI
 * building loss rate), so a territory's λ = its NRI ALRB × that ratio. Uses states where both are > 0.
 */
export function fallbackRatio(
  meanLambdaByState: Map<string, number>,
  nri: Map<string, NriState>,
  prefix: string,
): number {
  const ratios: number[] = [];
  for (const [fips, lam] of meanLambdaByState) {
    const alr = nriNumber(nri.get(fips), `${prefix}_ALRB`);
    if (lam > 0 && alr > 0) ratios.push(lam / alr);
  }
  ratios.sort((a, b) => a - b);
  return quantile(ratios, 0.5);
}
