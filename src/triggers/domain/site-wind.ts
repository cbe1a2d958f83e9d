/**
 * Wind at a trigger site from one storm position (a best-track or advisory fix, or a position interpolated
 * between fixes), by a Vmax-anchored Holland profile (docs/triggers.md "The wind profile"):
 *  - when the record gives the storm's radius of maximum wind (ATCF b-deck RMW; HURDAT2 since 2021), that
 *    is Rm, and B is fitted to the record's wind radii (record-profile.ts), or Holland (2008) B without them;
 *  - otherwise the calibrated statistical profile the hazard baseline and the live fallback rings use
 *    (src/domain/rings/hurricane.ts windField: Rm from Willoughby et al. 2006 times the baseline's
 *    `hurricane_wind.radius_scale`, B from Holland 2008; docs/methods.md#hurricane-wind and #trigger-observations). The calibration scale
 *    was fitted with Holland (2008) B, so it is never mixed with a radii-fitted B.
 * Symmetric: no forward-motion asymmetry, as in the baseline (the best-track Vmax already includes motion).
 * Units: kt (NHC 1-min sustained), km; RMW and radii in nm as the records give them.
 */
import { windField, type WindField } from '../../domain/rings/hurricane.js';
import { EARTH_RADIUS_KM, KM_PER_NM } from '../../lib/geo.js';

export interface StormPosition {
  lat: number;
  lng: number;
  windKt: number;
  pressureMb: number | null;
  /** The record's radius of maximum wind (nm), when it gives one. */
  rmwNm?: number | null;
  /** Holland B fitted to the record's wind radii (record-profile.ts), when it has an RMW and radii. */
  fittedB?: number | null;
}

/** A position's profile and where its Rm and B came from (named in each receipt's method). */
export interface PositionProfile extends WindField {
  rmFrom: 'record' | 'statistical';
  bFrom: 'radii' | 'pressure';
}

/** Translation speed (m/s) assumed when a single fix gives none (as the live rings assume). */
export const DEFAULT_TRANSLATION_MS = 5;

const KM_PER_DEG = (Math.PI / 180) * EARTH_RADIUS_KM;

/**
 * Equirectangular distance (km) at the mean latitude: within 0.5 % of the great circle up to ~1000 km at
 * US latitudes, and several times cheaper than haversine in the replay's inner loop.
 */
export function flatKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const mLat = ((lat1 + lat2) / 2) * (Math.PI / 180);
  let dLng = lng2 - lng1;
  if (dLng > 180) dLng -= 360;
  if (dLng < -180) dLng += 360;
  const dx = dLng * Math.cos(mLat) * KM_PER_DEG;
  const dy = (lat2 - lat1) * KM_PER_DEG;
  return Math.sqrt(dx * dx + dy * dy);
}

/** Surface 1-min wind (kt) of a profile at rKm from the centre; 0 at the centre itself (the eye). */
export function profileWindKt(f: WindField, rKm: number): number {
  return hollandWindKt(f.windKt, f.rmKm, f.b, rKm);
}

/** The profile of one position: the record's RMW (and B fitted to its radii) where given, else the calibrated statistical one. */
export function positionProfile(
  p: StormPosition,
  radiusScale: number,
  translationMs = DEFAULT_TRANSLATION_MS,
): PositionProfile {
  const statistical = windField(p.windKt, p.lat, p.pressureMb, translationMs, radiusScale);
  if (!(p.rmwNm != null && p.rmwNm > 0)) return { ...statistical, rmFrom: 'statistical', bFrom: 'pressure' };
  const rmKm = p.rmwNm * KM_PER_NM;
  return p.fittedB == null
    ? { windKt: p.windKt, rmKm, b: statistical.b, rmFrom: 'record', bFrom: 'pressure' }
    : { windKt: p.windKt, rmKm, b: p.fittedB, rmFrom: 'record', bFrom: 'radii' };
}

/**
 * Wind (kt) at a site distanceKm from the storm centre: positionProfile's wind, computed without building
 * the profile object where it can be (the replay's inner loop visits ~10^6 positions per 1,000 triggers).
 */
export function siteWindKt(
  p: StormPosition,
  distanceKm: number,
  radiusScale: number,
  translationMs = DEFAULT_TRANSLATION_MS,
): number {
  if (!(p.windKt > 0)) return 0;
  if (p.rmwNm != null && p.rmwNm > 0) {
    const b = p.fittedB ?? windField(p.windKt, p.lat, p.pressureMb, translationMs, radiusScale).b;
    return hollandWindKt(p.windKt, p.rmwNm * KM_PER_NM, b, distanceKm);
  }
  return profileWindKt(windField(p.windKt, p.lat, p.pressureMb, translationMs, radiusScale), distanceKm);
}

function hollandWindKt(windKt: number, rmKm: number, b: number, rKm: number): number {
  if (!(rKm > 0)) return 0;
  const s = (rmKm / rKm) ** b;
  return windKt * Math.sqrt(s * Math.exp(1 - s));
}

/** How the profile of the deciding position was made, for the receipt: "Rm 37.0 km (the record's RMW), B 2.31 (fitted to its wind radii)". */
export function describeProfile(f: PositionProfile): string {
  const rm = f.rmFrom === 'record' ? "the record's RMW" : 'Willoughby et al. 2006 × the calibrated radius scale';
  const b = f.bFrom === 'radii' ? "fitted to the record's wind radii" : 'Holland 2008';
  return `Rm ${f.rmKm.toFixed(1)} km (${rm}), B ${f.b.toFixed(2)} (${b})`;
}
