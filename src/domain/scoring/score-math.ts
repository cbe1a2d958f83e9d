/**
 * The score mappings of docs/methods.md#score-mappings, and the small numeric helpers they need.
 * All scores are on 0.00–10.00.
 */
import { normalCdf } from '../../lib/numerics/normal.js';
import { KT_TO_MS } from '../../lib/numerics/units.js';

/** docs/methods.md#score-mappings: hazard_score = w_f·S_freq(λ_dmg) + w_s·S_freq(λ_sev), default w_f = 0.6, w_s = 0.4. */
export const WEIGHT_DAMAGING = 0.6;
export const WEIGHT_SEVERE = 0.4;

export function clamp10(x: number): number {
  return x < 0 ? 0 : x > 10 ? 10 : x;
}

export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * Absolute log-decade frequency score, docs/methods.md#score-mappings: S_freq = clamp(2.5·(log10 λ + 4), 0, 10), so
 * 1/yr → 10, 1/10 yr → 7.5, 1/100 yr → 5, 1/1000 yr → 2.5, 1/10 000 yr or rarer → 0.
 */
export function frequencyScore(lambdaPerYr: number): number {
  if (!(lambdaPerYr > 0)) return 0;
  return clamp10(2.5 * (Math.log10(lambdaPerYr) + 4));
}

/** A peril's frequency scale: the annual frequencies (log10) that score 0 and 10 (docs/scoring.md §1.1). */
export interface FrequencyScale {
  log10Lo: number;
  log10Hi: number;
}

/** The scale of docs/methods.md#score-mappings, 1/10 000 yr → 0 to 1/yr → 10, kept as the default. */
export const MODELS_MD_SCALE: FrequencyScale = { log10Lo: -4, log10Hi: 0 };

/**
 * The log-decade score of docs/methods.md#score-mappings on a peril's own anchors: clamp(10·(log10 λ − lo)/(hi − lo), 0, 10).
 * With lo = −4 and hi = 0 it is S_freq above.
 */
export function scaledFrequencyScore(lambdaPerYr: number, scale: FrequencyScale): number {
  if (!(lambdaPerYr > 0)) return 0;
  return clamp10((10 * (Math.log10(lambdaPerYr) - scale.log10Lo)) / (scale.log10Hi - scale.log10Lo));
}

/** docs/methods.md#score-mappings combined frequency score on the peril's scale, unrounded. A NaN severe frequency counts as zero. */
export function combinedFrequencyScore(
  lambdaDamaging: number,
  lambdaSevere: number,
  scale: FrequencyScale = MODELS_MD_SCALE,
): number {
  return (
    WEIGHT_DAMAGING * scaledFrequencyScore(lambdaDamaging, scale) +
    WEIGHT_SEVERE * scaledFrequencyScore(lambdaSevere, scale)
  );
}

/**
 * Relative score on a log scale between two national anchors (log10 of the 5th and 95th state
 * percentiles of the metric, measured by the build): 0 at or below lo, 10 at or above hi [judgement,
 * in the spirit of NRI's relative scores, docs/methods.md#reference-products]. A metric of zero scores 0.
 */
export function relativeScore(metric: number, log10Lo: number, log10Hi: number): number {
  if (!(metric > 0) || !(log10Hi > log10Lo)) return 0;
  return clamp10((10 * (Math.log10(metric) - log10Lo)) / (log10Hi - log10Lo));
}

/**
 * Relative perils: average the two positions on their scales (0 at the 5th-percentile anchor, 1 at the
 * 95th), each limited to [-1, 2] so one extreme value cannot dominate, then map to 0–10. Averaging
 * positions rather than clamped scores lets a very low loss rate pull down a very high event count (the
 * Hawaii winter-weather case, nri-perils.ts). With only one of the two, that one alone; neither → 0; a
 * zero value sits at the floor (-1).
 */
export function relativePairScore(
  frequency: number,
  fLo: number,
  fHi: number,
  lossRate: number,
  lLo: number,
  lHi: number,
): number {
  const pos = (x: number, lo: number, hi: number) =>
    x > 0 ? Math.min(2, Math.max(-1, (Math.log10(x) - lo) / (hi - lo))) : -1;
  const hasF = Number.isFinite(frequency) && fHi > fLo;
  const hasL = Number.isFinite(lossRate) && lHi > lLo;
  if (!hasF && !hasL) return 0;
  const p =
    hasF && hasL
      ? (pos(frequency, fLo, fHi) + pos(lossRate, lLo, lHi)) / 2
      : hasF
        ? pos(frequency, fLo, fHi)
        : pos(lossRate, lLo, lHi);
  return clamp10(10 * p);
}

/** docs/methods.md#score-mappings: S_int = clamp(10·(I_100 − I_dmg)/(I_ext − I_dmg), 0, 10). */
export function intensityScore(value: number, damaging: number, extreme: number): number {
  return clamp10((10 * (value - damaging)) / (extreme - damaging));
}

/**
 * Emanuel (2011) wind damage function as coded in CLIMADA (docs/methods.md#damage-functions): v_n = max(V − V_thr, 0)/(V_half −
 * V_thr), MDR = v_n³/(1 + v_n³), V 1-min m/s, V_thr 25.7 m/s, V_half 86.0 m/s (US, Eberenz et al. 2021
 * NA2 RMSF calibration; a portfolio-level curve).
 */
export function emanuelMdr(windKt: number): number {
  const v = windKt * KT_TO_MS;
  const vn = Math.max(v - 25.7, 0) / (86.0 - 25.7);
  return vn ** 3 / (1 + vn ** 3);
}

/**
 * USGS PAGER US economic loss rate as a function of MMI (Jaiswal & Wald; docs/methods.md#damage-functions):
 * ν(S) = Φ(ln(S/θ)/β), θ = 11.5055, β = 0.15 — MMI VI 7e-6, VIII 0.77 %, X 17.5 %.
 */
export const PAGER_US_ECONOMIC_LOSS = { theta: 11.5055, beta: 0.15 } as const;

export function pagerLossRate(mmi: number): number {
  if (!(mmi > 0)) return 0;
  return normalCdf(Math.log(mmi / PAGER_US_ECONOMIC_LOSS.theta) / PAGER_US_ECONOMIC_LOSS.beta);
}

export type Confidence = 'high' | 'medium' | 'low';

/**
 * docs/methods.md#score-mappings: high if events_used ≥ 10, resolution ≤ 1 km and record ≥ 30 yr; low if events_used < 3
 * or λ comes from the NRI prior only; else medium. Our grid is ~25 km, so nothing reaches 'high' yet.
 */
export function confidenceLevel(o: {
  eventsUsed: number;
  recordYears: number;
  resolutionKm: number;
  nriOnly: boolean;
}): Confidence {
  if (o.nriOnly || !(o.eventsUsed >= 3)) return 'low';
  if (o.eventsUsed >= 10 && o.resolutionKm <= 1 && o.recordYears >= 30) return 'high';
  return 'medium';
}

/** Mid-rank percentile (0–100, one decimal) of a score against 101 ascending quantiles. */
export function percentileOf(score: number, quantiles: readonly number[] | undefined): number | null {
  if (!quantiles || quantiles.length < 2) return null;
  let below = 0;
  let atOrBelow = 0;
  for (const q of quantiles) {
    if (q < score) below++;
    if (q <= score) atOrBelow++;
  }
  const n = quantiles.length;
  return Math.round(((below + atOrBelow) / 2 / n) * 1000) / 10;
}
