/**
 * Perils without a public catalog in the shared data (riverine flood, extreme heat, drought, winter
 * storm) come from the NRI state table, and so do hurricane and earthquake where our catalogs do not
 * reach (docs/scoring.md). Per state:
 *   λ (events per county-year)  = EVNTS / (record years · counties in the state) · exposed share
 *   relative metric             = the NRI expected annual loss rate · exposed share: ALRB (buildings) for
 *                                 flood and winter weather, ALRP (population) for heat, which harms
 *                                 people rather than buildings; for drought the event frequency λ itself,
 *                                 because NRI's drought loss is agricultural only and its loss rates
 *                                 follow farm exposure (e.g. Massachusetts ranks near the top) rather
 *                                 than how often drought occurs [judgement]
 * "Exposed share" = EXP_AREA / AREA, which only matters for flood (the rest cover whole states).
 * The relative scale runs between log10 of the 5th and 95th percentiles of the metric over the states,
 * DC and territories that have one [judgement].
 */
import { nriNumber, type NriState } from './nri.js';

export interface NriPerilSpec {
  prefix: string;
  metric: 'ALRB' | 'ALRP' | 'EVENTS';
  useExposedShare: boolean;
}

export const NRI_PERILS = {
  riverine_flood: { prefix: 'IFLD', metric: 'ALRB', useExposedShare: true },
  extreme_heat: { prefix: 'HWAV', metric: 'ALRP', useExposedShare: false },
  drought: { prefix: 'DRGT', metric: 'EVENTS', useExposedShare: false },
  winter_storm: { prefix: 'WNTW', metric: 'ALRB', useExposedShare: false },
} as const satisfies Record<string, NriPerilSpec>;

export interface StateValues {
  lambda: number; // events per county-year (× exposed share); NaN if NRI has none
  metric: number; // loss rate (× exposed share); NaN if NRI has none
}

export function nriStateValues(spec: NriPerilSpec, s: NriState | undefined, recordYears: number, countiesInState: number): StateValues {
  const area = nriNumber(s, 'AREA');
  const expArea = nriNumber(s, `${spec.prefix}_EXP_AREA`);
  const share = spec.useExposedShare ? (area > 0 && expArea >= 0 ? Math.min(1, expArea / area) : NaN) : 1;
  const events = nriNumber(s, `${spec.prefix}_EVNTS`);
  const lambda = countiesInState > 0 ? (events / (recordYears * countiesInState)) * share : NaN;
  return { lambda, metric: spec.metric === 'EVENTS' ? lambda : nriNumber(s, `${spec.prefix}_${spec.metric}`) * share };
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
  const logs = metrics.filter((m) => m > 0).map(Math.log10).sort((a, b) => a - b);
  return { lo: quantile(logs, 0.05), hi: quantile(logs, 0.95) };
}

/**
 * Catalog-to-NRI calibration for the fallback: the median over states of (state-mean catalog λ) / (NRI
 * building loss rate), so a territory's λ = its NRI ALRB × that ratio. Uses states where both are > 0.
 */
export function fallbackRatio(meanLambdaByState: Map<string, number>, nri: Map<string, NriState>, prefix: string): number {
  const ratios: number[] = [];
  for (const [fips, lam] of meanLambdaByState) {
    const alr = nriNumber(nri.get(fips), `${prefix}_ALRB`);
    if (lam > 0 && alr > 0) ratios.push(lam / alr);
  }
  ratios.sort((a, b) => a - b);
  return quantile(ratios, 0.5);
}
