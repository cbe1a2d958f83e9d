/**
 * Earthquake shaking rings: median MMI VIII / VI / IV contours from an intensity prediction equation,
 * as circles around the epicentre (../shared/reference/models.md §3.1, docs/rings-earthquake-hurricane.md).
 * These are the pre-ShakeMap fallback: once USGS publishes a ShakeMap, its contours are better.
 */
import type { Ring, RingInput } from '../event.js';
import { circlePolygon } from '../../lib/geo.js';

type EarthquakeInput = Extract<RingInput, { kind: 'earthquake' }>;
type Region = EarthquakeInput['region'];

/** The MMI levels we draw, innermost first; labels use the USGS ShakeMap "perceived shaking" words. */
const LEVELS = [
  { mmi: 8, label: 'MMI VIII (severe shaking)' },
  { mmi: 6, label: 'MMI VI (strong shaking)' },
  { mmi: 4, label: 'MMI IV (light shaking)' },
] as const;

/** Search bound for the bisection (km); an M9 in the east reaches MMI IV at ~970 km. */
const MAX_SEARCH_KM = 3000;
/** Wells & Coppersmith (1994) line-source rule applies from this magnitude up (models.md §3.1). */
const LINE_SOURCE_MIN_MAGNITUDE = 6.5;

/**
 * Median MMI at epicentral distance repiKm, Atkinson, Worden & Wald (2014), BSSA 104:3084, eq. 1 with the
 * paper's form of B (B = max(0, log10(R/50)), i.e. zero inside 50 km), M = Mw:
 *   R = sqrt(Rhyp² + 14²)
 *   MMI = 0.309 + 1.864 M − 1.672 log10 R − 0.00219 R + 1.77 B − 0.383 M log10 R
 * ENA (central/eastern US) adds 0.7 + 0.001 Repi + max(0, 0.8 log10(min(Repi, 150)/50)).
 */
export function aww14Mmi(magnitude: number, repiKm: number, depthKm: number, region: Region): number {
  const rHypKm = Math.hypot(repiKm, Math.max(0, depthKm));
  const r = Math.hypot(rHypKm, 14);
  const logR = Math.log10(r);
  const b = Math.max(0, Math.log10(r / 50));
  let mmi = 0.309 + 1.864 * magnitude - 1.672 * logR - 0.00219 * r + 1.77 * b - 0.383 * magnitude * logR;
  if (region === 'east') mmi += 0.7 + 0.001 * repiKm + Math.max(0, 0.8 * Math.log10(Math.min(repiKm, 150) / 50));
  return mmi;
}

/**
 * Epicentral distance (km) out to which the median MMI is at least `mmi`, or null when it is reached
 * nowhere (not even at the epicentre). The IPE decreases with distance for every magnitude that reaches MMI IV, but we do not
 * rely on that: a coarse geometric scan finds the outermost bracket, and bisection refines it to ~1 m.
 */
export function mmiRadiusKm(magnitude: number, depthKm: number, region: Region, mmi: number): number | null {
  const reaches = (d: number) => aww14Mmi(magnitude, d, depthKm, region) >= mmi;
  const step = (d: number) => (d === 0 ? 1 : d * 1.25);
  let lo = -1; // outermost scan point where the level is reached
  for (let d = 0; d <= MAX_SEARCH_KM; d = step(d)) if (reaches(d)) lo = d;
  if (lo < 0) return null;
  let hi = step(lo);
  if (hi > MAX_SEARCH_KM) return lo; // still reached at the search bound: report the bound
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (reaches(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}

/** Surface rupture length (km), Wells & Coppersmith (1994) all slip types: log10 SRL = −3.22 + 0.69 M. */
export function surfaceRuptureLengthKm(magnitude: number): number {
  return 10 ** (-3.22 + 0.69 * magnitude);
}

/**
 * Rings innermost (MMI VIII) to outermost (MMI IV); a level the quake does not reach gets no ring, so small
 * quakes get none (at 10 km depth, no MMI IV below about M4.2 in the west, M3.7 in the east). From M6.5
 * up the rupture is treated as a line of unknown strike centred on the epicentre: radius = r_IPE + SRL/2.
 */
export function earthquakeRings(input: EarthquakeInput, center: { lat: number; lng: number }): Ring[] {
  const { magnitude, depthKm, region } = input;
  if (!Number.isFinite(magnitude) || !Number.isFinite(depthKm)) return [];
  const halfRuptureKm = magnitude >= LINE_SOURCE_MIN_MAGNITUDE ? surfaceRuptureLengthKm(magnitude) / 2 : 0;
  const rings: Ring[] = [];
  for (const level of LEVELS) {
    const rIpeKm = mmiRadiusKm(magnitude, depthKm, region, level.mmi);
    if (rIpeKm === null) continue;
    const radiusKm = Math.round((rIpeKm + halfRuptureKm) * 10) / 10;
    if (radiusKm <= 0) continue;
    rings.push({
      kind: 'mmi',
      label: level.label,
      threshold: level.mmi,
      unit: 'MMI',
      radiusKm,
      geometry: circlePolygon(center.lat, center.lng, radiusKm),
    });
  }
  return rings;
}
