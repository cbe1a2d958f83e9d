/**
 * Hazard curve of peak gust at a site from any set of tracks with annual rates: the historical record
 * (each storm 1/125 per year over 1900–2024) today, the stochastic catalog (each track 1/years) when it
 * exists. The annual exceedance rate of a gust g is λ(g) = Σ rate_i · [peak_i > g] (Poisson arrivals).
 *
 * Return-period gusts: within the span the tracks cover (1/min rate, e.g. 125 years for history) the
 * empirical curve is read directly, interpolated in log λ; beyond half that span the record has too few
 * storms to read, so the upper tail is a Weibull distribution of the storm peaks above the first
 * intensity edge, P(G > g | G > u) = exp(−((g/c)^k − (u/c)^k)), fitted by least squares on the
 * empirical log-survival (ln(−ln S) against ln g), the form used for hurricane gusts at a site in the
 * ASCE 7 hurricane studies (Vickery et al. 2000). The curve says which it used.
 */
import { FIRST_EDGE_MPH } from './intensity-bins.js';
import type { Track } from './track.js';
import { sitePeakGustMph } from './wind-field/point-wind.js';
import { stormSteps } from './wind-field/storm-steps.js';

export interface Site {
  lat: number;
  lng: number;
  /** Distance inland from the sea coast (km); 0 on the shore. */
  inlandKm: number;
}

export interface HazardCurve {
  /** Peak gust (mph) per track with its annual rate, for tracks reaching the first edge, descending. */
  peaks: Array<{ gustMph: number; rate: number; parentId: string }>;
  /** Years the tracks span: 1 / the smallest rate. */
  spanYears: number;
  /** Annual rate of storms with a gust at or above the first edge. */
  rateAboveEdge: number;
}

export function hazardCurve(tracks: Track[], ratePerTrack: number | number[], site: Site): HazardCurve {
  const rates = tracks.map((_, i) => (typeof ratePerTrack === 'number' ? ratePerTrack : ratePerTrack[i]));
  const peaks: HazardCurve['peaks'] = [];
  tracks.forEach((t, i) => {
    const near = t.fixes.some((f) => Math.abs(f.lat - site.lat) < 8 && Math.abs(f.lng - site.lng) < 10);
    if (!near) return;
    const g = sitePeakGustMph(stormSteps(t), site.lat, site.lng, site.inlandKm);
    if (g >= FIRST_EDGE_MPH) peaks.push({ gustMph: g, rate: rates[i], parentId: t.parentId });
  });
  peaks.sort((a, b) => b.gustMph - a.gustMph);
  const minRate = Math.min(...rates.filter((r) => r > 0));
  return { peaks, spanYears: 1 / minRate, rateAboveEdge: peaks.reduce((s, p) => s + p.rate, 0) };
}

/** Annual rate of storms whose peak gust at the site exceeds g. */
export function exceedanceRate(curve: HazardCurve, gustMph: number): number {
  let s = 0;
  for (const p of curve.peaks) if (p.gustMph > gustMph) s += p.rate;
  return s;
}

export interface ReturnPeriodGust {
  gustMph: number | null;
  method: 'empirical' | 'weibull_tail' | 'none';
}

export function gustAtReturnPeriod(curve: HazardCurve, years: number): ReturnPeriodGust {
  const target = 1 / years;
  if (curve.peaks.length === 0 || curve.rateAboveEdge < target) {
    if (curve.peaks.length < 3) return { gustMph: null, method: 'none' };
  }
  if (years <= curve.spanYears / 2) {
    // Cumulative rate down the sorted peaks; interpolate ln λ between neighbours.
    let cum = 0;
    for (let i = 0; i < curve.peaks.length; i++) {
      const prev = cum;
      cum += curve.peaks[i].rate;
      if (cum >= target) {
        if (i === 0) return { gustMph: curve.peaks[0].gustMph, method: 'empirical' };
        const w = (Math.log(target) - Math.log(prev)) / (Math.log(cum) - Math.log(prev));
        return { gustMph: curve.peaks[i - 1].gustMph + (curve.peaks[i].gustMph - curve.peaks[i - 1].gustMph) * w, method: 'empirical' };
      }
    }
    return { gustMph: FIRST_EDGE_MPH, method: 'empirical' };
  }
  const fit = weibullTail(curve);
  if (!fit) return { gustMph: null, method: 'none' };
  // λ(g) = ν·exp(−((g/c)^k − (u/c)^k)) = target.
  const x = (FIRST_EDGE_MPH / fit.c) ** fit.k + Math.log(curve.rateAboveEdge / target);
  return { gustMph: fit.c * x ** (1 / fit.k), method: 'weibull_tail' };
}

/** Least-squares Weibull on the conditional survival of the storm peaks above the first edge (rate-weighted plotting positions). */
export function weibullTail(curve: HazardCurve): { k: number; c: number } | null {
  const n = curve.peaks.length;
  if (n < 5) return null;
  const nu = curve.rateAboveEdge;
  const asc = [...curve.peaks].reverse();
  const xs: number[] = [];
  const ys: number[] = [];
  let above = nu;
  for (const p of asc) {
    // Survival at this peak: the rate of storms above it (Weibull plotting position, half the own rate).
    const s = (above - p.rate / 2) / nu;
    above -= p.rate;
    if (!(s > 0 && s < 1)) continue;
    xs.push(Math.log(p.gustMph));
    ys.push(Math.log(-Math.log(s)));
  }
  // ln(−ln S) = ln((g/c)^k − (u/c)^k): solve for k, c by a 1-D search on k with c from the regression.
  let best: { k: number; c: number; err: number } | null = null;
  for (let k = 1; k <= 12; k += 0.05) {
    // For a given k, S = exp(−(g^k − u^k)/c^k) ⇒ −ln S = (g^k − u^k)·c^{−k}: least squares through the origin.
    let num = 0;
    let den = 0;
    const zs = xs.map((lx) => Math.exp(k * lx) - FIRST_EDGE_MPH ** k);
    zs.forEach((z, i) => {
      const m = Math.exp(ys[i]);
      num += z * m;
      den += z * z;
    });
    if (!(num > 0 && den > 0)) continue;
    const a = num / den; // c^{−k}
    let err = 0;
    zs.forEach((z, i) => {
      const e = Math.log(Math.max(a * z, 1e-12)) - ys[i];
      err += e * e;
    });
    if (!best || err < best.err) best = { k, c: a ** (-1 / k), err };
  }
  return best ? { k: best.k, c: best.c } : null;
}
