/**
 * The year loss table by simulation and the EP metrics (docs/methods.md#ep-curves, as Oasis's leccalc): for each simulated
 * year, n ~ Poisson(sum of rates) catalog events drawn with P(e) = rate_e / sum (Walker's alias method), plus
 * one Exp(1)-scaled loss per state season; the year's occurrence loss is its largest event, its aggregate
 * loss the sum. OEP, AEP and TVaR at the return periods come from src/loss/domain/ept.ts (lec's ranking and
 * interpolation, the same code `catintel oasis run` writes its ept with). Pure and seeded: the same seed gives
 * the same years.
 */
import { EP_TYPE, epCurve, type EptRow } from '../../loss/domain/ept.js';
import { mulberry32 } from '../../lib/random.js';
import type { Elt } from './catalog.js';

export const RETURN_PERIODS = [2, 5, 10, 25, 50, 100, 200, 250, 500, 1000] as const;

export interface Ylt {
  years: number;
  occ: Float64Array;
  agg: Float64Array;
  /** Events drawn over all years. */
  eventsDrawn: number;
}

/** Walker/Vose alias table over weights. */
export function aliasTable(w: Float64Array): { prob: Float64Array; alias: Int32Array } {
  const n = w.length;
  const prob = new Float64Array(n);
  const alias = new Int32Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) sum += w[i];
  const scaled = new Float64Array(n);
  const small: number[] = [];
  const large: number[] = [];
  for (let i = 0; i < n; i++) {
    scaled[i] = (w[i] * n) / sum;
    (scaled[i] < 1 ? small : large).push(i);
  }
  while (small.length && large.length) {
    const s = small.pop()!;
    const l = large.pop()!;
    prob[s] = scaled[s];
    alias[s] = l;
    scaled[l] = scaled[l] + scaled[s] - 1;
    (scaled[l] < 1 ? small : large).push(l);
  }
  for (const i of large) prob[i] = 1;
  for (const i of small) prob[i] = 1;
  return { prob, alias };
}

/** ln(k!) : exact sums below 16, Stirling's series above (error < 1e-10). */
function logFactorial(k: number): number {
  if (k < 16) {
    let s = 0;
    for (let i = 2; i <= k; i++) s += Math.log(i);
    return s;
  }
  const x = k + 1;
  return (x - 0.5) * Math.log(x) - x + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * x) - 1 / (360 * x * x * x) + 1 / (1260 * x ** 5);
}

/**
 * A Poisson(lambda) count: Knuth's product of uniforms below 10, Hoermann's transformed rejection with squeeze
 * (PTRS, 1993; the algorithm numpy uses) from 10 up, so a year costs a couple of uniforms however many events.
 */
export function poisson(lambda: number, rand: () => number): number {
  if (lambda < 10) {
    const limit = Math.exp(-lambda);
    let k = 0;
    let prod = rand();
    while (prod > limit) {
      k++;
      prod *= rand();
    }
    return k;
  }
  const slam = Math.sqrt(lambda);
  const loglam = Math.log(lambda);
  const b = 0.931 + 2.53 * slam;
  const a = -0.059 + 0.02483 * b;
  const invalpha = 1.1239 + 1.1328 / (b - 3.4);
  const vr = 0.9277 - 3.6224 / (b - 2);
  for (;;) {
    const U = rand() - 0.5;
    const V = rand();
    const us = 0.5 - Math.abs(U);
    const k = Math.floor(((2 * a) / us + b) * U + lambda + 0.43);
    if (us >= 0.07 && V <= vr) return k;
    if (k < 0 || (us < 0.013 && V > us)) continue;
    if (Math.log(V) + Math.log(invalpha) - Math.log(a / (us * us) + b) <= -lambda + k * loglam - logFactorial(k)) return k;
  }
}

export function simulateYears(elt: Elt, years: number, seed: number, onProgress?: (done: number) => void): Ylt {
  const rand = mulberry32(seed);
  const occ = new Float64Array(years);
  const agg = new Float64Array(years);
  const n = elt.rate.length;
  let total = 0;
  for (let i = 0; i < n; i++) total += elt.rate[i];
  const { prob, alias } = n ? aliasTable(elt.rate) : { prob: new Float64Array(0), alias: new Int32Array(0) };
  const loss = elt.loss;
  const seasons = Float64Array.from(elt.seasons, (s) => s.expectedLoss);
  let drawn = 0;
  const chunk = Math.max(1, Math.ceil(years / 20));
  for (let y = 0; y < years; y++) {
    let o = 0;
    let a = 0;
    const count = total > 0 ? poisson(total, rand) : 0;
    for (let j = 0; j < count; j++) {
      const u = rand() * n;
      const k = u | 0;
      const l = loss[u - k < prob[k] ? k : alias[k]];
      a += l;
      if (l > o) o = l;
    }
    drawn += count;
    for (let s = 0; s < seasons.length; s++) {
      const l = seasons[s] * -Math.log(1 - rand());
      a += l;
      if (l > o) o = l;
    }
    occ[y] = o;
    agg[y] = a;
    if (onProgress && (y + 1) % chunk === 0) onProgress(y + 1);
  }
  return { years, occ, agg, eventsDrawn: drawn };
}

export interface EpPoint {
  return_period: number;
  exceedance_probability: number;
  oep: number;
  aep: number;
  oep_tvar: number;
  aep_tvar: number;
}

const DESC = [...RETURN_PERIODS].sort((a, b) => b - a);

/** ORD ept rows (EPCalc 1: the mean damage ratio) for one set of years: OEP, OEP TVaR, AEP, AEP TVaR. */
export function eptRows(occ: Float64Array, agg: Float64Array, summaryId = 1, epCalc = 1): EptRow[] {
  const o = epCurve(occ, occ.length, DESC, summaryId, epCalc, EP_TYPE.OEP);
  const a = epCurve(agg, agg.length, DESC, summaryId, epCalc, EP_TYPE.AEP);
  return [...o.rows, ...o.tvar, ...a.rows, ...a.tvar];
}

/** The curve at every return period the years reach (RP <= years), ascending return period. */
export function epPoints(rows: EptRow[]): EpPoint[] {
  const get = (type: number, rp: number) => rows.find((r) => r.epType === type && r.returnPeriod === rp)?.loss ?? 0;
  const rps = [...new Set(rows.map((r) => r.returnPeriod))].sort((a, b) => a - b);
  return rps.map((rp) => ({
    return_period: rp,
    exceedance_probability: 1 / rp,
    oep: get(EP_TYPE.OEP, rp),
    aep: get(EP_TYPE.AEP, rp),
    oep_tvar: get(EP_TYPE.OEP_TVAR, rp),
    aep_tvar: get(EP_TYPE.AEP_TVAR, rp),
  }));
}

export function mean(x: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return x.length ? s / x.length : 0;
}
