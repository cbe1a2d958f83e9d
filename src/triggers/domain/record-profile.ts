/**
 * The wind profile of one storm position from the record's own size, when the record gives it: the radius
 * of maximum wind (ATCF b-deck RMW, HURDAT2 RMW since 2021) as Rm, and the Holland B that best fits the
 * record's wind radii (34/50/64 kt, each the mean of its four quadrants). Holland (1980) profile,
 * Vmax-anchored: V(r) = Vmax · sqrt(s · e^(1−s)), s = (Rm/r)^B.
 *
 * Why fit B to the radii rather than keep Holland (2008) B from the pressure: with the record's Rm the
 * pressure B is not what the radii show. Ian at landfall (2022-09-28 19:05Z: 130 kt, 941 mb, RMW 20 nm)
 * has B_s = 1.40, which puts the 64-kt radius at 195 km against 67 km reported; the fit gives B = 2.31
 * and 101 km (50 kt: 128 km against 120 km; 34 kt: 181 km against 245 km). One B cannot match all three
 * radii of a storm with a compact core and broad outer winds (Willoughby, Darling & Rahn 2006); the least
 * squares fit in log radius is the compromise. Inside Rm, where cat-in-a-circle triggers are decided, the
 * wind barely depends on B (Ian 33.5 km from the centre: 129 kt with B 1.40, 128 kt with 2.31).
 *
 * The fit: for a threshold v_k < Vmax, s_k solves s·e^(1−s) = (v_k/Vmax)² on (0, 1) whatever B is, and
 * the modelled radius is r_k = Rm · s_k^(−1/B). With a_k = −ln s_k and y_k = ln(R_k/Rm) for each reported
 * radius R_k beyond Rm, 1/B = Σ y_k a_k / Σ a_k², clamped to Holland's (1980) range B ∈ [1.0, 2.5].
 * Radii inside Rm, or thresholds at or above Vmax, say nothing about the outer shape and are left out.
 * B is fitted at each fix and interpolated linearly between fixes, as position, wind and RMW are.
 */
import { hollandS } from '../../domain/rings/hurricane.js';
import { KM_PER_NM } from '../../lib/geo.js';

/** Wind radii of one position (nm), each the mean of the four quadrants; absent when not reported. */
export type MeanRadiiNm = Partial<Record<34 | 50 | 64, number>>;

export const HOLLAND_B_MIN = 1.0;
export const HOLLAND_B_MAX = 2.5;

/**
 * Holland B fitted to the record's mean wind radii for this Vmax and Rm (km); null when no radius lies
 * beyond Rm below Vmax (then the caller keeps the pressure-based B).
 */
export function fitHollandB(windKt: number, rmKm: number, radiiNm: MeanRadiiNm | null | undefined): number | null {
  if (!radiiNm || !(rmKm > 0)) return null;
  let num = 0;
  let den = 0;
  for (const kt of [34, 50, 64] as const) {
    const rNm = radiiNm[kt];
    if (rNm === undefined || !(rNm > 0) || !(windKt > kt)) continue;
    const rKm = rNm * KM_PER_NM;
    if (!(rKm > rmKm)) continue;
    const a = -Math.log(hollandS((kt / windKt) ** 2));
    num += Math.log(rKm / rmKm) * a;
    den += a * a;
  }
  if (!(num > 0) || !(den > 0)) return null;
  return Math.min(HOLLAND_B_MAX, Math.max(HOLLAND_B_MIN, den / num));
}

/** A fix as the record gives its size: Vmax, and RMW and mean radii when present. */
export interface SizedFix {
  windKt: number;
  rmwNm?: number | null;
  radiiNm?: MeanRadiiNm | null;
}

const fitted = new WeakMap<object, number | null>();

/**
 * The B fitted at one fix (null without an RMW or without usable radii), memoized per fix object: an
 * evaluation round or a backtest walks the same fixes for thousands of triggers.
 */
export function fixFittedB(f: SizedFix): number | null {
  const known = fitted.get(f);
  if (known !== undefined) return known;
  const b = f.rmwNm != null && f.rmwNm > 0 ? fitHollandB(f.windKt, f.rmwNm * KM_PER_NM, f.radiiNm) : null;
  fitted.set(f, b);
  return b;
}

/**
 * B between two fixes, f (0-1) of the way: linear between the two fitted values; the one fitted value when
 * only one fix has radii; null (Holland 2008 B from the pressure) when neither has.
 */
export function fittedBBetween(a: SizedFix, b: SizedFix, f: number): number | null {
  const ba = fixFittedB(a);
  if (f === 0) return ba;
  const bb = fixFittedB(b);
  if (f === 1) return bb;
  if (ba !== null && bb !== null) return ba + (bb - ba) * f;
  return ba ?? bb;
}
