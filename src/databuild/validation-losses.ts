/**
 * Flood and wildfire scores against losses (docs/validation.md §7, printed by scripts/validate-scores.ts):
 * the state flood level against NFIP claims paid per dollar of building value, our county scores in
 * Florida and California against FEMA NRI v1.19's county expected annual loss rates (the only per-hazard
 * county tables in the shared data), and the named points a user checks first. Kept apart from the
 * build: nothing here feeds the committed grid.
 */
import { parse } from 'csv-parse/sync';
import type { Peril } from '../domain/scoring/perils.js';
import { spearman } from '../lib/stats.js';
import type { CountyScores } from './validation.js';

/** A named point and the score bound a user expects there (the tests pin the same points). */
export interface PinnedPoint {
  name: string;
  lat: number;
  lng: number;
  peril: Peril;
  /** The score must be below `below` or above `above`. */
  below?: number;
  above?: number;
}

export const PINNED_POINTS: readonly PinnedPoint[] = [
  { name: 'Hialeah FL', lat: 25.86, lng: -80.28, peril: 'wildfire', below: 2 },
  { name: 'downtown Miami FL', lat: 25.77, lng: -80.19, peril: 'wildfire', below: 2 },
  { name: 'Manhattan NY', lat: 40.78, lng: -73.97, peril: 'wildfire', below: 2 },
  { name: 'Paradise CA', lat: 39.76, lng: -121.62, peril: 'wildfire', above: 7 },
  { name: 'Los Alamos NM', lat: 35.88, lng: -106.3, peril: 'wildfire', above: 7 },
  { name: 'Death Valley CA', lat: 36.46, lng: -116.87, peril: 'riverine_flood', below: 2 },
  { name: 'open Nevada desert', lat: 37.5, lng: -116.0, peril: 'riverine_flood', below: 2 },
  { name: 'Houston TX', lat: 29.76, lng: -95.37, peril: 'riverine_flood', above: 5 },
  { name: 'New Orleans LA', lat: 29.95, lng: -90.07, peril: 'riverine_flood', above: 5 },
];

export function pinnedPointHolds(p: PinnedPoint, score: number): boolean {
  return (p.below === undefined || score < p.below) && (p.above === undefined || score > p.above);
}

/** NFIP amount paid (building + contents, 1978–2019) per state abbreviation. */
export function parseNfipStateClaims(text: string): Map<string, number> {
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  return new Map(
    rows.filter((r) => Number(r.amountpaidontotalclaim) >= 0).map((r) => [r.state, Number(r.amountpaidontotalclaim)]),
  );
}

/** ρ between a per-state value of ours and NFIP claims paid / NRI building value, over states with both. */
export function rhoAgainstNfip(
  ours: Map<string, number>,
  nfipPaid: Map<string, number>,
  buildValue: Map<string, number>,
): { states: number; rho: number } {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [abbr, v] of [...ours].sort((a, b) => a[0].localeCompare(b[0]))) {
    const paid = nfipPaid.get(abbr);
    const bv = buildValue.get(abbr);
    if (paid === undefined || !(bv! > 0) || !Number.isFinite(v)) continue;
    xs.push(v);
    ys.push(paid / bv!);
  }
  return { states: xs.length, rho: spearman(xs, ys) };
}

/** The parts of NRI's county expected annual loss rate (FEMA NRI Technical Documentation: EAL = exposure × annualized frequency × historic loss ratio). */
export const NRI_RATE_PARTS = [
  { part: 'historic loss ratio', column: (prefix: string, r: Record<string, string>) => Number(r[`${prefix}_HLRB`]) },
  {
    part: 'exposed share of building value',
    column: (prefix: string, r: Record<string, string>) => Number(r[`${prefix}_EXPB`]) / Number(r.BUILDVALUE),
  },
  { part: 'annualized frequency', column: (prefix: string, r: Record<string, string>) => Number(r[`${prefix}_AFREQ`]) },
] as const;

/**
 * For each part of NRI's county rate: ρ between that part and the rate itself (which part carries NRI's
 * ranking), and ρ between our county-centre score and that part (whether we agree with any of them).
 */
export function rhoNriRateParts(
  counties: CountyScores[],
  nriCounties: Map<string, Record<string, string>>,
  peril: Peril,
  prefix: string,
): { part: string; withRate: number; withOurs: number }[] {
  return NRI_RATE_PARTS.map(({ part, column }) => {
    const ours: number[] = [];
    const parts: number[] = [];
    const rates: number[] = [];
    for (const c of counties) {
      const r = nriCounties.get(c.centre.fips);
      if (!r) continue;
      const bv = Number(r.BUILDVALUE);
      const rate = Number(r[`${prefix}_EALB`]) / bv;
      const v = column(prefix, r);
      if (!(bv > 0) || !Number.isFinite(rate) || !Number.isFinite(v)) continue;
      ours.push(c.scores[peril]);
      parts.push(v);
      rates.push(rate);
    }
    return { part, withRate: spearman(parts, rates), withOurs: spearman(ours, parts) };
  });
}

/**
 * ρ between our score at each county's population centre and NRI's county expected annual loss rate
 * (`<prefix>_EALB` / BUILDVALUE), over the counties of `nriCounties` we cover.
 */
export function rhoAgainstNriCounties(
  counties: CountyScores[],
  nriCounties: Map<string, Record<string, string>>,
  peril: Peril,
  prefix: string,
): { counties: number; rho: number } {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const c of counties) {
    const r = nriCounties.get(c.centre.fips);
    const bv = Number(r?.BUILDVALUE);
    const eal = Number(r?.[`${prefix}_EALB`]);
    if (!r || !(bv > 0) || !Number.isFinite(eal)) continue;
    xs.push(c.scores[peril]);
    ys.push(eal / bv);
  }
  return { counties: xs.length, rho: spearman(xs, ys) };
}
