/**
 * The earthquake rupture set: every source as ruptures with annual rates, by tectonic setting.
 *  - Gridded seismicity: each 0.1° cell carries N(M ≥ 5) = N_region(M ≥ 5) × pdf_cell (NSHM 2023 spatial pdfs
 *    in the central and eastern US, our smoothing of the NSHMP catalog in the West) and a truncated
 *    Gutenberg–Richter distribution between M 5 and the cell's Mmax with the regional b-value, in 0.1 bins.
 *    Each bin is a point-source rupture (Petersen et al. 2014, 2020, 2024 model gridded seismicity the same
 *    way, with Mmax distributions where we take one value).
 *  - Faults: the NSHM 2023 western fault sections' characteristic ruptures, Cascadia, New Madrid and
 *    Charleston, with the magnitudes and rates of the fault-source build (one rupture each).
 */
import { nearestTracePoint, ruptureDistanceKm, type Plane, type Rupture } from '../../../reference-data/eq-faults.js';
import type { RuptureDistances, Tectonic } from './ground-motion.js';

/** Smallest magnitude in the hazard, as in the NSHM gridded sources. */
export const M_MIN = 5.0;
export const M_BIN = 0.1;
/** Depth to the top of a gridded point rupture [judgement, after NSHM's 5 km for gridded sources]. */
export const POINT_DEPTH_KM = 5;

export interface GriddedSource {
  lat: number;
  lng: number;
  tectonic: Tectonic;
  /** Annual rate of M ≥ 5 in this cell. */
  rateM5: number;
  b: number;
  mMax: number;
}

export interface MagnitudeBin {
  magnitude: number; // bin centre
  /** Share of the cell's M ≥ 5 rate in this bin. */
  share: number;
}

/** Truncated Gutenberg–Richter bins of width 0.1 from M 5 to Mmax (the last bin may be narrower). */
export function magnitudeBins(b: number, mMax: number): MagnitudeBin[] {
  const norm = 1 - 10 ** (-b * (mMax - M_MIN));
  const out: MagnitudeBin[] = [];
  for (let lo = M_MIN; lo < mMax - 1e-9; lo += M_BIN) {
    const hi = Math.min(lo + M_BIN, mMax);
    out.push({ magnitude: (lo + hi) / 2, share: (10 ** (-b * (lo - M_MIN)) - 10 ** (-b * (hi - M_MIN))) / norm });
  }
  return out;
}

/** Surface rupture length (km), Wells & Coppersmith (1994) Table 2A, all slip types: log10 L = −3.22 + 0.69 M. */
export function ruptureLengthKm(m: number): number {
  return 10 ** (-3.22 + 0.69 * m);
}

/** Strikes over which a point source's finite rupture is averaged (0 to 90°; the rest follow by symmetry). */
export const POINT_STRIKES = 8;

/**
 * Distances from a site at epicentral distance `repiKm` to a vertical rupture of length L(M) centred on the
 * epicentre with strike θ to the site direction (NSHM likewise averages point sources over strikes).
 */
export function pointRuptureDistances(repiKm: number, m: number, strikeRad: number): RuptureDistances {
  const a = ruptureLengthKm(m) / 2;
  const along = repiKm * Math.abs(Math.cos(strikeRad));
  const across = repiKm * Math.abs(Math.sin(strikeRad));
  const rjbKm = Math.hypot(Math.max(along - a, 0), across);
  return { rjbKm, rrupKm: Math.hypot(rjbKm, POINT_DEPTH_KM) };
}

export interface FaultRupture {
  name: string;
  magnitude: number;
  rate: number;
  tectonic: Tectonic;
  planes: Plane[];
  basis: string;
  /** [south, west, north, east] of the planes and their down-dip reach, for the distance cutoff. */
  box: [number, number, number, number];
}

/** A fault-source rupture with its setting: Cascadia is the subduction interface, eastern sources stable crust. */
export function toFaultRupture(r: Rupture): FaultRupture {
  const tectonic: Tectonic = /^Cascadia interface/.test(r.name) ? 'interface' : r.region === 'east' ? 'stable' : 'active';
  return { name: r.name, magnitude: r.magnitude, rate: r.rate, tectonic, planes: r.planes, basis: r.basis, box: planesBox(r.planes) };
}

function planesBox(planes: Plane[]): [number, number, number, number] {
  let s = Infinity;
  let n = -Infinity;
  let w = Infinity;
  let e = -Infinity;
  for (const p of planes) {
    const reachDeg = (p.lowKm - p.upKm) / Math.tan((Math.max(p.dipDeg, 5) * Math.PI) / 180) / 80;
    for (const [x, y] of p.trace) {
      s = Math.min(s, y - reachDeg);
      n = Math.max(n, y + reachDeg);
      w = Math.min(w, x - reachDeg);
      e = Math.max(e, x + reachDeg);
    }
  }
  return [s, w, n, e];
}

/**
 * Joyner–Boore distance to a plane: the distance to the nearest trace point, less the horizontal width of the
 * plane's surface projection when the site is on the hanging-wall side.
 */
export function joynerBooreKm(lat: number, lng: number, p: Plane): number {
  const { distanceKm: best, side } = nearestTracePoint(lat, lng, p);
  const dip = (Math.max(p.dipDeg, 5) * Math.PI) / 180;
  const projected = p.dipDeg >= 89.9 ? 0 : ((p.lowKm - p.upKm) / Math.tan(dip));
  return side > 0 ? Math.max(0, best - projected) : best;
}

/** R_JB and R_rup from a site to the nearest plane of a fault rupture. */
export function faultDistances(lat: number, lng: number, r: FaultRupture): RuptureDistances {
  let rjbKm = Infinity;
  let rrupKm = Infinity;
  for (const p of r.planes) {
    rjbKm = Math.min(rjbKm, joynerBooreKm(lat, lng, p));
    rrupKm = Math.min(rrupKm, ruptureDistanceKm(lat, lng, p));
  }
  return { rjbKm, rrupKm };
}

/** One magnitude bin of one gridded cell as a rupture: a vertical line source of length L(M) with a strike. */
export interface PointRupture {
  lat: number;
  lng: number;
  magnitude: number;
  rate: number;
  tectonic: Tectonic;
  strikeDeg: number;
}

/**
 * The ruptures of a gridded cell, one per magnitude bin and strike (`strikes` evenly spaced over 0–180°, the
 * cell's bin rate shared among them), for event sets that need each rupture explicitly.
 */
export function griddedRuptures(s: GriddedSource, strikes = 1): PointRupture[] {
  const out: PointRupture[] = [];
  for (const bin of magnitudeBins(s.b, Math.round(s.mMax * 10) / 10)) {
    for (let k = 0; k < strikes; k++) {
      out.push({ lat: s.lat, lng: s.lng, magnitude: bin.magnitude, rate: (s.rateM5 * bin.share) / strikes, tectonic: s.tectonic, strikeDeg: (180 * k) / strikes });
    }
  }
  return out;
}
