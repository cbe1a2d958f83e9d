/**
 * Earthquake shaking rings MMI VIII / VI / IV (docs/rings-earthquake-hurricane.md). When USGS has published a
 * ShakeMap for the event, its contours are the rings (./shakemap.ts). Otherwise: the median of an intensity
 * prediction equation (AWW14, docs/methods.md#earthquake-shaking), corrected by a bias and a finite-fault
 * distance calibrated against real ShakeMaps and DYFI data (docs/validation.md), as circles around the epicentre.
 */
import type { Ring, RingInput } from '../event.js';
import { circlePolygon } from '../../lib/geo.js';
import { shakemapRings } from './shakemap.js';

type EarthquakeInput = Extract<RingInput, { kind: 'earthquake' }>;
type Region = EarthquakeInput['region'];

/** The MMI levels we draw, innermost first; labels use the USGS ShakeMap "perceived shaking" words. */
const LEVELS = [
  { mmi: 8, label: 'MMI VIII (severe shaking)' },
  { mmi: 6, label: 'MMI VI (strong shaking)' },
  { mmi: 4, label: 'MMI IV (light shaking)' },
] as const;

/** The ring label of an MMI level ('MMI VI (strong shaking)'). */
export function labelOf(mmi: number): string {
  return LEVELS.find((l) => l.mmi === mmi)?.label ?? `MMI ${mmi}`;
}

/** Search bound for the bisection (km); an M9 in the east reaches MMI IV at ~970 km. */
const MAX_SEARCH_KM = 3000;
/** Wells & Coppersmith (1994) line-source rule applies from this magnitude up (docs/methods.md#earthquake-shaking). */
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

/** Rupture width (km), Wells & Coppersmith (1994) all slip types: log10 RW = −1.01 + 0.32 M. */
export function ruptureWidthKm(magnitude: number): number {
  return 10 ** (-1.01 + 0.32 * magnitude);
}

/**
 * How the equation is turned into rings. `biasMmi` is added to AWW14's median MMI. `finiteFault` says how a
 * rupture of M >= 6.5 (a line of unknown strike through the epicentre, length SRL) enters:
 *   'radius_plus_half_length': point-source radius r, plus SRL/2 (the union over every strike; until issue 8);
 *   'rupture_distance': distance measured to the rupture, whose top lies half a Wells & Coppersmith width
 *     above the hypocentre (AWW14 uses rupture distance for large events), and the circle whose area equals
 *     the area within r of the line, r² + 4 r (SRL/2) / π: the expected footprint of an unknown strike
 *     rather than the union of all of them, which overstated the inner rings several times over.
 */
export interface IpeModel {
  biasMmi: number;
  finiteFault: 'radius_plus_half_length' | 'rupture_distance';
}

/** The equation as it stood before calibration (kept so docs/validation.md can show before and after). */
export const UNCORRECTED_IPE: IpeModel = { biasMmi: 0, finiteFault: 'radius_plus_half_length' };

/**
 * Calibrated on the reference maps of docs/validation.md ("Earthquake rings": the Loma Prieta ShakeMap grid,
 * South Napa's DYFI cells and ShakeMap stations, the Hebgen Lake ShakeMap contours): with the rupture
 * distance, +0.3 MMI is the bias that maximises the mean F1 of ring recall and precision over them (and
 * minimises the mean squared log of ring size over reference size), on a grid of −1.0 … +1.0 in 0.1 steps.
 * Three events are a small sample, and they disagree (Loma Prieta's Bay Area muds want more, Hebgen Lake
 * less): this is a correction of the median, not a new equation.
 */
export const CORRECTED_IPE: IpeModel = { biasMmi: 0.3, finiteFault: 'rupture_distance' };

/**
 * Rings innermost (MMI VIII) to outermost (MMI IV); a level the quake does not reach gets no ring, so small
 * quakes get none. With a ShakeMap, its contours are the rings; otherwise the corrected equation draws
 * circles around the epicentre (the feed gives no strike).
 */
export function earthquakeRings(
  input: EarthquakeInput,
  center: { lat: number; lng: number },
  model: IpeModel = CORRECTED_IPE,
): Ring[] {
  if (input.shakemap) return shakemapRings(input.shakemap, labelOf);
  const { magnitude, depthKm, region } = input;
  if (!Number.isFinite(magnitude) || !Number.isFinite(depthKm)) return [];
  const large = magnitude >= LINE_SOURCE_MIN_MAGNITUDE;
  const halfRuptureKm = large ? surfaceRuptureLengthKm(magnitude) / 2 : 0;
  const finite = large && model.finiteFault === 'rupture_distance';
  const sourceDepthKm = finite ? Math.max(0, depthKm - ruptureWidthKm(magnitude) / 2) : depthKm;
  const rings: Ring[] = [];
  for (const level of LEVELS) {
    const rIpeKm = mmiRadiusKm(magnitude, sourceDepthKm, region, level.mmi - model.biasMmi);
    if (rIpeKm === null) continue;
    const reachKm = finite ? Math.sqrt(rIpeKm ** 2 + (4 * rIpeKm * halfRuptureKm) / Math.PI) : rIpeKm + halfRuptureKm;
    const radiusKm = Math.round(reachKm * 10) / 10;
    if (radiusKm <= 0) continue;
    rings.push({
      kind: 'mmi',
      label: level.label,
      threshold: level.mmi,
      unit: 'MMI',
      radiusKm,
      geometry: circlePolygon(center.lat, center.lng, radiusKm),
      estimate: true, // a stand-in until a ShakeMap arrives; never replaces ShakeMap rings (domain/rings/merge.ts)
    });
  }
  return rings;
}
