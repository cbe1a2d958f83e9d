/**
 * The wind of one storm step at a point: the tangential surface wind of the vortex plus the background
 * flow of the storm's motion (surface.ts), as a marine 1-min wind, then the peak 3-s gust for the site's
 * distance inland.
 */
import { gradientWindMs } from './holland.js';
import type { StormStep } from './storm-steps.js';
import { BACKGROUND_FRACTION, BACKGROUND_ROTATION_DEG, MS_TO_MPH, SURFACE_REDUCTION, gustPerMarineWind } from './surface.js';

const KM_PER_DEG = 111.195;
const COS_ROT = Math.cos((BACKGROUND_ROTATION_DEG * Math.PI) / 180);
const SIN_ROT = Math.sin((BACKGROUND_ROTATION_DEG * Math.PI) / 180);

/** Background flow (m/s east, north): 0.55 × motion rotated 20° counter-clockwise. */
export function backgroundFlow(step: StormStep): [number, number] {
  const ve = step.vEastMs * BACKGROUND_FRACTION;
  const vn = step.vNorthMs * BACKGROUND_FRACTION;
  return [ve * COS_ROT - vn * SIN_ROT, ve * SIN_ROT + vn * COS_ROT];
}

/** Marine 1-min wind (m/s) at (dxKm east, dyKm north) of the centre, given the step's background flow. */
export function marineWindMs(step: StormStep, dxKm: number, dyKm: number, bgEast: number, bgNorth: number): number {
  const r = Math.hypot(dxKm, dyKm);
  if (!(r > 0)) return Math.hypot(bgEast, bgNorth);
  const v = SURFACE_REDUCTION * gradientWindMs(step.profile, r);
  // Counter-clockwise (northern hemisphere) tangential unit vector: (−dy, dx)/r.
  const e = (-dyKm / r) * v + bgEast;
  const n = (dxKm / r) * v + bgNorth;
  return Math.sqrt(e * e + n * n);
}

/** Peak 3-s gust (mph) at a site from one step; inlandKm <= 0 over water. */
export function stepGustMph(step: StormStep, lat: number, lng: number, inlandKm: number): number {
  const [be, bn] = backgroundFlow(step);
  const dx = (lng - step.lng) * Math.cos((lat * Math.PI) / 180) * KM_PER_DEG;
  const dy = (lat - step.lat) * KM_PER_DEG;
  return marineWindMs(step, dx, dy, be, bn) * gustPerMarineWind(inlandKm) * MS_TO_MPH;
}

/** The storm's peak gust (mph) at a site over all its steps. */
export function sitePeakGustMph(steps: StormStep[], lat: number, lng: number, inlandKm: number): number {
  let peak = 0;
  for (const s of steps) {
    if (Math.abs(s.lat - lat) > 8 || Math.abs(s.lng - lng) > 10) continue; // > ~800 km: no wind worth a bin
    const g = stepGustMph(s, lat, lng, inlandKm);
    if (g > peak) peak = g;
  }
  return peak;
}
