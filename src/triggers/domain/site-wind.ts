/**
 * Wind at a trigger site from one storm position (a best-track or advisory fix, or a position interpolated
 * between fixes), by the calibrated parametric profile the hazard baseline and the live fallback rings use
 * (src/domain/rings/hurricane.ts windField: Vmax-anchored Holland profile, Rm from Willoughby et al. 2006
 * times the baseline's `hurricane_wind.radius_scale`, B from Holland 2008; models.md §3.2 and §7).
 * Symmetric: no forward-motion asymmetry, as in the baseline (the best-track Vmax already includes motion).
 * Units: kt (NHC 1-min sustained), km.
 */
import { windField, type WindField } from '../../domain/rings/hurricane.js';
import { EARTH_RADIUS_KM } from '../../lib/geo.js';

export interface StormPosition {
  lat: number;
  lng: number;
  windKt: number;
  pressureMb: number | null;
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
  if (!(rKm > 0)) return 0;
  const s = (f.rmKm / rKm) ** f.b;
  return f.windKt * Math.sqrt(s * Math.exp(1 - s));
}

/** Wind (kt) at a site distanceKm from the storm centre. */
export function siteWindKt(p: StormPosition, distanceKm: number, radiusScale: number, translationMs = DEFAULT_TRANSLATION_MS): number {
  if (!(p.windKt > 0)) return 0;
  return profileWindKt(windField(p.windKt, p.lat, p.pressureMb, translationMs, radiusScale), distanceKm);
}
