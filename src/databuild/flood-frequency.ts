/**
 * Flood frequency at one gauge from its USGS annual peaks (NWIS peak RDB), the documented example of
 * docs/validation.md §6: how often the NWS flood stage is reached, by three routes.
 *  - empirical: annual peaks at or above the stage / years of record;
 *  - Gumbel (EV1) fitted to the annual peak stages by the method of moments (Chow 1964:
 *    α = s·√6/π, u = mean − 0.5772·α);
 *  - log-Pearson III fitted to the annual peak flows by the moments of log10 Q with the station skew
 *    (Bulletin 17B, IACWD 1982; no regional skew or low-outlier test, 17C's EMA not attempted), the
 *    frequency factor by the Wilson–Hilferty approximation, the flood-stage flow from a power-law rating
 *    (log Q on log stage) fitted to the same peaks.
 * Nineteen years at one site is a worked example, not national coverage.
 */
import { normalCdf } from '../lib/numerics/normal.js';

export interface AnnualPeak {
  waterYear: number;
  date: string;
  flowCfs: number;
  stageFt: number | null;
}

/** USGS NWIS annual peak RDB: tab-separated, '#' comments, a header and a format line. */
export function parseUsgsPeaks(text: string): AnnualPeak[] {
  const lines = text.split(/\r?\n/).filter((l) => l !== '' && !l.startsWith('#'));
  const head = lines[0].split('\t');
  const col = (name: string) => head.indexOf(name);
  const out: AnnualPeak[] = [];
  for (const l of lines.slice(2)) {
    const f = l.split('\t');
    const date = f[col('peak_dt')];
    const q = Number(f[col('peak_va')]);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || !(q > 0)) continue;
    const y = Number(date.slice(0, 4));
    const m = Number(date.slice(5, 7));
    const h = f[col('gage_ht')]?.trim();
    out.push({ waterYear: m >= 10 ? y + 1 : y, date, flowCfs: q, stageFt: h ? Number(h) : null });
  }
  return out;
}

function moments(xs: readonly number[]): { mean: number; sd: number; skew: number } {
  const n = xs.length;
  const mean = xs.reduce((t, v) => t + v, 0) / n;
  const s2 = xs.reduce((t, v) => t + (v - mean) ** 2, 0) / (n - 1);
  const m3 = xs.reduce((t, v) => t + (v - mean) ** 3, 0);
  const sd = Math.sqrt(s2);
  return { mean, sd, skew: (n * m3) / ((n - 1) * (n - 2) * sd ** 3) };
}

/** Gumbel by moments; annual probability that the annual maximum reaches x. */
export function gumbelFit(xs: readonly number[]) {
  const { mean, sd } = moments(xs);
  const alpha = (sd * Math.sqrt(6)) / Math.PI;
  const u = mean - 0.5772 * alpha;
  return {
    u,
    alpha,
    exceedance: (x: number) => 1 - Math.exp(-Math.exp(-(x - u) / alpha)),
    quantile: (aep: number) => u - alpha * Math.log(-Math.log(1 - aep)),
  };
}

/** Log-Pearson III by the moments of log10 Q with the station skew (Bulletin 17B), Wilson–Hilferty frequency factor. */
export function lp3Fit(flows: readonly number[]) {
  const { mean, sd, skew: g } = moments(flows.map(Math.log10));
  const kOf = (z: number) => (Math.abs(g) < 1e-6 ? z : (2 / g) * ((1 + (g * z) / 6 - (g * g) / 36) ** 3 - 1));
  const zOf = (k: number) => (Math.abs(g) < 1e-6 ? k : (6 / g) * (Math.cbrt(1 + (g * k) / 2) - 1 + (g * g) / 36));
  return {
    mean,
    sd,
    skew: g,
    exceedance: (q: number) => 1 - normalCdf(zOf((Math.log10(q) - mean) / sd)),
    quantile: (aep: number) => 10 ** (mean + kOf(normalQuantile(1 - aep)) * sd),
  };
}

/** Power-law rating Q = a·h^b by least squares on logs, from peaks with both values. */
export function ratingFit(peaks: readonly AnnualPeak[]) {
  const pts = peaks
    .filter((p) => p.stageFt !== null && p.stageFt > 0)
    .map((p) => [Math.log(p.stageFt!), Math.log(p.flowCfs)]);
  const n = pts.length;
  const mx = pts.reduce((t, p) => t + p[0], 0) / n;
  const my = pts.reduce((t, p) => t + p[1], 0) / n;
  const b = pts.reduce((t, p) => t + (p[0] - mx) * (p[1] - my), 0) / pts.reduce((t, p) => t + (p[0] - mx) ** 2, 0);
  const a = Math.exp(my - b * mx);
  return { a, b, points: n, flowAt: (stageFt: number) => a * stageFt ** b };
}

/** Standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239,
  ];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
      ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    );
  }
  if (p > 1 - lo) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) /
    (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  );
}

/** The three estimates of how often a gauge reaches its flood stage. */
export function floodStageFrequency(peaks: readonly AnnualPeak[], floodStageFt: number) {
  const stages = peaks.filter((p) => p.stageFt !== null).map((p) => p.stageFt!);
  const years = peaks.length;
  const reached = stages.filter((h) => h >= floodStageFt).length;
  const gumbel = gumbelFit(stages);
  const lp3 = lp3Fit(peaks.map((p) => p.flowCfs));
  const rating = ratingFit(peaks);
  const qFlood = rating.flowAt(floodStageFt);
  return {
    years,
    stageYears: stages.length,
    empirical: reached / stages.length,
    reached,
    gumbelStage: gumbel.exceedance(floodStageFt),
    lp3Flow: lp3.exceedance(qFlood),
    floodFlowCfs: qFlood,
    q100Cfs: lp3.quantile(0.01),
    stage100Ft: gumbel.quantile(0.01),
    lp3,
    rating,
  };
}
