/**
 * The directed random walk that turns one historical track into a synthetic one (Kleppek et al. 2008, as
 * implemented in CLIMADA's tc_tracks_synth, Aznar-Siguan & Bresch 2019): the start is moved by up to
 * +-0.75° in latitude and longitude, then every hourly segment keeps the record's motion but turns by an
 * accumulated angle (per-hour change uniform within +-0.5°, lag-1 h autocorrelation 0.5) and stretches by
 * a factor 1 +- 0.3 (autocorrelation 0.85). Parameters: CLIMADA's defaults.
 */
import { TRACK_EARTH_RADIUS_KM } from '../../../../lib/geo.js';
import { normalCdfViaErf } from '../../../../lib/numerics/normal.js';
export const RANDOM_WALK = {
  maxStartShiftDeg: 0.75,
  maxSpeedChangeRel: 0.3,
  maxDirectionChangeDegPerHour: 0.5,
  autocorrSpeed: 0.85,
  autocorrDirection: 0.5,
} as const;

const RAD = Math.PI / 180;

/** Standard normal from two uniforms (Box-Muller; one variate per pair, so the stream does not depend on call history). */
export function normal(rand: () => number): number {
  const u = 1 - rand();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/**
 * n values uniform on [-1, 1] with lag-1 autocorrelation close to `rho`: an AR(1) Gaussian series mapped
 * through the normal CDF (the construction CLIMADA uses).
 */
export function autocorrelatedUniform(n: number, rho: number, rand: () => number, out: Float64Array): Float64Array {
  const s = Math.sqrt(1 - rho * rho);
  let z = 0;
  // Innovations two at a time: Box-Muller gives a pair of independent normals from one pair of uniforms.
  for (let i = 0; i < n; i += 2) {
    const r = Math.sqrt(-2 * Math.log(1 - rand()));
    const theta = 2 * Math.PI * rand();
    z = i === 0 ? r * Math.cos(theta) : rho * z + s * r * Math.cos(theta);
    out[i] = 2 * normalCdfViaErf(z) - 1;
    if (i + 1 < n) {
      z = rho * z + s * r * Math.sin(theta);
      out[i + 1] = 2 * normalCdfViaErf(z) - 1;
    }
  }
  return out;
}

/** The record's hourly segments as the walk reads them: initial great-circle bearing and angular length (rad) of segment i-1 -> i, at index i. */
export interface Segments {
  bearingRad: Float64Array;
  lengthRad: Float64Array;
}

export function segmentsOf(lat: Float64Array, lng: Float64Array): Segments {
  const n = lat.length;
  const bearingRad = new Float64Array(n);
  const lengthRad = new Float64Array(n);
  for (let i = 1; i < n; i++) {
    const la1 = lat[i - 1] * RAD;
    const la2 = lat[i] * RAD;
    const dl = (lng[i] - lng[i - 1]) * RAD;
    const y = Math.sin(dl) * Math.cos(la2);
    const x = Math.cos(la1) * Math.sin(la2) - Math.sin(la1) * Math.cos(la2) * Math.cos(dl);
    const h = Math.sin((la2 - la1) / 2) ** 2 + Math.cos(la1) * Math.cos(la2) * Math.sin(dl / 2) ** 2;
    bearingRad[i] = Math.atan2(y, x);
    lengthRad[i] = 2 * Math.asin(Math.min(1, Math.sqrt(h)));
  }
  return { bearingRad, lengthRad };
}

/**
 * Perturb an hourly track's positions into (outLat, outLng). The record's segment bearings and lengths
 * (great circle) are the drift the walk keeps. outDistKm, when given, receives the distance the copy has
 * run at each hour (its along-track stage, to which its intensity is tied).
 */
export function perturbTrack(lat: Float64Array, lng: Float64Array, segments: Segments, rand: () => number, outLat: Float64Array, outLng: Float64Array, scratch: { a: Float64Array; b: Float64Array }, outDistKm?: Float64Array): void {
  const n = lat.length;
  const p = RANDOM_WALK;
  outLat[0] = lat[0] + p.maxStartShiftDeg * (2 * rand() - 1);
  outLng[0] = lng[0] + p.maxStartShiftDeg * (2 * rand() - 1);
  const dir = autocorrelatedUniform(n - 1, p.autocorrDirection, rand, scratch.a);
  const speed = autocorrelatedUniform(n - 1, p.autocorrSpeed, rand, scratch.b);
  let turn = 0;
  if (outDistKm) {
    // The copy's stage starts where its shifted start lies along the record's first motion (a copy set 50 km
    // ahead of the record's storm is 50 km further along its life).
    const east = (outLng[0] - lng[0]) * Math.cos(lat[0] * RAD) * 111.2;
    const north = (outLat[0] - lat[0]) * 111.2;
    const me = (lng[1] - lng[0]) * Math.cos(lat[0] * RAD);
    const mn = lat[1] - lat[0];
    const m = Math.hypot(me, mn);
    outDistKm[0] = m > 0 ? (east * me + north * mn) / m : 0;
  }
  for (let i = 1; i < n; i++) {
    const delta = segments.lengthRad[i];
    turn += p.maxDirectionChangeDegPerHour * dir[i - 1];
    const bearing = segments.bearingRad[i] + turn * RAD;
    const d = delta * (1 + p.maxSpeedChangeRel * speed[i - 1]);
    if (outDistKm) outDistKm[i] = outDistKm[i - 1] + d * TRACK_EARTH_RADIUS_KM;
    const s1 = outLat[i - 1] * RAD;
    const s2 = Math.asin(Math.sin(s1) * Math.cos(d) + Math.cos(s1) * Math.sin(d) * Math.cos(bearing));
    const l2 = outLng[i - 1] * RAD + Math.atan2(Math.sin(bearing) * Math.sin(d) * Math.cos(s1), Math.cos(d) - Math.sin(s1) * Math.sin(s2));
    outLat[i] = s2 / RAD;
    outLng[i] = l2 / RAD;
  }
}

