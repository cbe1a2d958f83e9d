/**
 * The parametric surface wind field we run along every HURDAT2 track (models.md §3.2): the Vmax-anchored
 * Holland profile V(r) = Vmax·sqrt((Rm/r)^B·e^{1−(Rm/r)^B}) with Rm from HURDAT2's RMW when given (2021+)
 * or Willoughby et al. (2006), and B from Holland (2008) with Δp from the best-track central pressure, or
 * when that is missing (most fixes before the 1970s) from the Atkinson & Holliday (1977) wind–pressure
 * relation Vmax = 6.7·(1010 − pc)^0.644 (kt, hPa). No forward-motion asymmetry [judgement: HURDAT2 Vmax
 * already includes the storm's motion, and the asymmetric term would need a direction convention NHC
 * does not publish for the best track]. The Willoughby Rm, Holland B and radius solver are the ones the
 * live hurricane rings use (src/domain/rings/hurricane.ts), so both agree on a storm's footprint.
 */
import { hollandB2008, hollandRadiusKm, willoughbyRmKm } from '../domain/rings/hurricane.js';
import { KM_PER_NM } from '../lib/geo.js';

const ENVIRONMENTAL_PRESSURE_HPA = 1010;

export interface WindField {
  windKt: number;
  rmKm: number;
  b: number;
}

export function windField(windKt: number, latDeg: number, pressureMb: number | null, rmwNm: number | null, translationMs: number): WindField {
  const rmKm = rmwNm !== null ? rmwNm * KM_PER_NM : willoughbyRmKm(windKt, latDeg);
  const fromPressure = pressureMb !== null ? ENVIRONMENTAL_PRESSURE_HPA - pressureMb : NaN;
  const deltaPHpa = fromPressure > 0 ? fromPressure : (windKt / 6.7) ** (1 / 0.644);
  return { windKt, rmKm, b: hollandB2008(deltaPHpa, latDeg, translationMs) };
}

/** Surface 1-min wind (kt) at distance rKm from the centre. */
export function windAtKm(f: WindField, rKm: number): number {
  if (rKm <= 0) return 0;
  const s = (f.rmKm / rKm) ** f.b;
  return f.windKt * Math.sqrt(s * Math.exp(1 - s));
}

/** Outermost radius (km) of winds >= thresholdKt; the RMW itself when Vmax equals the threshold; null below it. */
export function radiusOfKm(f: WindField, thresholdKt: number): number | null {
  if (f.windKt < thresholdKt) return null;
  if (f.windKt === thresholdKt) return f.rmKm;
  return hollandRadiusKm(f.windKt, thresholdKt, f.rmKm, f.b);
}
