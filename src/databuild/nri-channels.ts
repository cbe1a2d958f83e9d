/**
 * Per-cell channels from the NRI state table: the four relative perils, and the fallback that fills
 * hurricane and earthquake frequencies where our catalogs do not reach (nri-perils.ts has the formulas).
 */
import { LOG_CODEC } from '../domain/scoring/grid-format.js';
import type { ChannelData } from './encode.js';
import type { NriState } from '../reference-data/nri.js';
import { nriNumber } from '../reference-data/nri.js';
import { NRI_PERILS, fallbackRatio, meanCountyArea, nriStateValues, relativeAnchors } from './nri-perils.js';
import type { BuildCell } from '../reference-data/regions.js';

/** Per-cell factors that redistribute a state's value inside the state (local-perils.ts); absent = 1. */
export type LocalFactors = Partial<Record<keyof typeof NRI_PERILS, { lambda?: Float64Array; loss?: Float64Array }>>;

export function nriRelativeChannels(
  cells: BuildCell[],
  nri: Map<string, NriState>,
  years: Map<string, number>,
  countyFips: string[],
  local: LocalFactors = {},
) {
  const countiesPerState = new Map<string, number>();
  for (const f of countyFips) countiesPerState.set(f.slice(0, 2), (countiesPerState.get(f.slice(0, 2)) ?? 0) + 1);
  const channels: ChannelData[] = [];
  const params: Record<string, number> = {};
  const countyArea = meanCountyArea(nri, countiesPerState);
  params['nri.mean_county_area_sq_mi'] = countyArea;
  for (const [peril, spec] of Object.entries(NRI_PERILS)) {
    const recordYears = years.get(spec.prefix) ?? NaN;
    const byState = new Map<string, { lambda: number; lossRate: number }>();
    for (const [fips, s] of nri)
      byState.set(fips, nriStateValues(spec, s, recordYears, countiesPerState.get(fips) ?? 0, countyArea));
    const freq = relativeAnchors([...byState.values()].map((v) => v.lambda));
    const loss = relativeAnchors([...byState.values()].map((v) => v.lossRate));
    params[`${peril}.frequency_log10_lo`] = freq.lo;
    params[`${peril}.frequency_log10_hi`] = freq.hi;
    params[`${peril}.loss_log10_lo`] = loss.lo;
    params[`${peril}.loss_log10_hi`] = loss.hi;
    params[`${peril}.record_years`] = recordYears;
    const f = local[peril as keyof typeof NRI_PERILS] ?? {};
    const lam = Float64Array.from(
      cells,
      (c, i) => (byState.get(c.stateFips)?.lambda ?? NaN) * (f.lambda ? f.lambda[i] : 1),
    );
    const lossRate = Float64Array.from(
      cells,
      (c, i) => (byState.get(c.stateFips)?.lossRate ?? NaN) * (f.loss ? f.loss[i] : 1),
    );
    channels.push({ name: `${peril}.lambda_damaging`, codec: LOG_CODEC, values: lam });
    channels.push({ name: `${peril}.loss_rate`, codec: LOG_CODEC, values: lossRate });
  }
  return { channels, params };
}

interface Lambdas {
  lambdaDamaging: Float64Array;
  lambdaSevere: Float64Array;
}

/** States (FIPS) outside HURDAT2's Atlantic and NE/N-Central Pacific basins: American Samoa, Guam, CNMI. */
const NO_HURDAT2 = new Set(['60', '66', '69']);
/** Only states with a material NRI building loss rate calibrate the ratio [judgement]. */
const MIN_ALRB = { HRCN: 1e-4, ERQK: 1e-5 } as const;

/**
 * Fill λ where the catalog route has no answer (in place), and return per-cell origin flags
 * (0 catalog, 1 NRI fallback) and the calibration ratios.
 */
export function applyNriFallback(
  cells: BuildCell[],
  nri: Map<string, NriState>,
  x: { hurricane: Lambdas; earthquake: Lambdas },
) {
  const params: Record<string, number> = {};
  const hurricaneOrigin = new Float64Array(cells.length);
  const earthquakeOrigin = new Float64Array(cells.length);
  const jobs = [
    {
      key: 'hurricane_wind',
      prefix: 'HRCN' as const,
      lam: x.hurricane,
      origin: hurricaneOrigin,
      needs: (c: BuildCell, i: number) => NO_HURDAT2.has(c.stateFips) || Number.isNaN(x.hurricane.lambdaDamaging[i]),
    },
    {
      key: 'earthquake',
      prefix: 'ERQK' as const,
      lam: x.earthquake,
      origin: earthquakeOrigin,
      needs: (_c: BuildCell, i: number) => Number.isNaN(x.earthquake.lambdaDamaging[i]),
    },
  ];
  for (const job of jobs) {
    const rD = ratio(cells, nri, job.lam.lambdaDamaging, job.prefix, (c, i) => !job.needs(c, i));
    const rS = ratio(cells, nri, job.lam.lambdaSevere, job.prefix, (c, i) => !job.needs(c, i));
    params[`${job.key}.fallback_ratio_damaging`] = rD;
    params[`${job.key}.fallback_ratio_severe`] = rS;
    cells.forEach((c, i) => {
      if (!job.needs(c, i)) return;
      const alr = nriNumber(nri.get(c.stateFips), `${job.prefix}_ALRB`);
      job.lam.lambdaDamaging[i] = alr >= 0 ? alr * rD : NaN;
      job.lam.lambdaSevere[i] = alr >= 0 ? alr * rS : NaN;
      job.origin[i] = 1;
    });
  }
  return { hurricaneOrigin, earthquakeOrigin, params };

  function ratio(
    cs: BuildCell[],
    states: Map<string, NriState>,
    lam: Float64Array,
    prefix: 'HRCN' | 'ERQK',
    ok: (c: BuildCell, i: number) => boolean,
  ): number {
    const sum = new Map<string, [number, number]>();
    cs.forEach((c, i) => {
      if (!ok(c, i) || !Number.isFinite(lam[i])) return;
      const acc = sum.get(c.stateFips) ?? [0, 0];
      acc[0] += lam[i];
      acc[1] += 1;
      sum.set(c.stateFips, acc);
    });
    const means = new Map<string, number>();
    for (const [fips, [s, k]] of [...sum].sort((a, b) => a[0].localeCompare(b[0]))) {
      if (nriNumber(states.get(fips), `${prefix}_ALRB`) >= MIN_ALRB[prefix]) means.set(fips, s / k);
    }
    return fallbackRatio(means, states, prefix);
  }
}
