/**
 * Perils without a public catalog in the shared data (riverine flood, extreme heat, drought, winter
 * storm) come from the NRI state table, and so do hurricane and earthquake where our catalogs do not
 * reach (docs/scoring.md). Per state:
 *   how often:    λ = EVNTS / (record years · counties in the state) · exposed share   (events per county-year);
 *                 for riverine flood λ = EVNTS / (record years · state area) · A_county · exposed share, with
 *                 A_county the mean area of a US county (events per year in a county of average size): see
 *                 EventsPer below.
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

/**
 * What NRI's event count is divided by. 'county': events per county-year. 'area': events per unit area,
 * times the mean county area. Flood and flash-flood reports in NCEI Storm Events, NRI's source for inland
 * flooding, are entered once per county affected (NWS Instruction 10-1605, Storm Data Preparation, the
 * county-based event types), and a flood covers part of a county, so a point in a state of large counties
 * (Arizona's 15 average 19,700 km²) sees a smaller share of each county's events than a point in a state of
 * small ones (Texas's 254 average 2,800 km²): per county-year, times the exposed share, Arizona's frequency
 * was 3.1 times Texas's; per area it is 0.43 of it [judgement: a flood's footprint does not grow with the
 * county that reports it].
 */
export type EventsPer = 'county' | 'area';

export interface NriPerilSpec {
  prefix: string;
  lossField: 'ALRB' | 'ALRP' | 'ALRA';
  useExposedShare: boolean;
  eventsPer: EventsPer;
}

export const NRI_PERILS = {
  riverine_flood: { prefix: 'IFLD', lossField: 'ALRB', useExposedShare: true, eventsPer: 'area' },
  extreme_heat: { prefix: 'HWAV', lossField: 'ALRP', useExposedShare: false, eventsPer: 'county' },
  drought: { prefix: 'DRGT', lossField: 'ALRA', useExposedShare: false, eventsPer: 'county' },
  winter_storm: { prefix: 'WNTW', lossField: 'ALRB', useExposedShare: false, eventsPer: 'county' },
} as const satisfies Record<string, NriPerilSpec>;

/** Mean area (the table's units) of a county over the states that have both an NRI area and counties. */
export function meanCountyArea(nri: Map<string, NriState>, countiesPerState: Map<string, number>): number {
  let area = 0;
  let counties = 0;
  for (const [fips, s] of [...nri].sort((a, b) => a[0].localeCompare(b[0]))) {
    const a = nriNumber(s, 'AREA');
    const k = countiesPerState.get(fips) ?? 0;
    if (!(a > 0) || !(k > 0)) continue;
    area += a;
    counties += k;
  }
  return area / counties;
}

export interface StateValues {
  lambda: number; // events per county-year, or per year in a county of mean area (× exposed share); NaN if NRI has none
  lossRate: number; // expected annual loss rate (× exposed share); NaN if NRI has none
}

export function nriStateValues(
  spec: NriPerilSpec,
  s: NriState | undefined,
  recordYears: number,
  countiesInState: number,
  countyArea = NaN,
): StateValues {
  const area = nriNumber(s, 'AREA');
  const expArea = nriNumber(s, `${spec.prefix}_EXP_AREA`);
  const share = spec.useExposedShare ? (area > 0 && expArea >= 0 ? Math.min(1, expArea / area) : NaN) : 1;
  const events = nriNumber(s, `${spec.prefix}_EVNTS`);
  const lambda =
    spec.eventsPer === 'area'
      ? area > 0
        ? (events / (recordYears * area)) * countyArea * share
        : NaN
      : countiesInState > 0
        ? (events / (recordYears * countiesInState)) * share
        : NaN;
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
