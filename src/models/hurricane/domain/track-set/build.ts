/**
 * The stochastic event set: every HURDAT2 storm of the historical period is perturbed into synthetic
 * copies by a random walk (random-walk.ts), each copy takes the record's sea intensity at the same stage of
 * its life and decays by itself over US land (intensity.ts), each copy is placed in a simulated year, and
 * only copies that pass within US_RELEVANCE_KM of US land at tropical-storm strength are kept. Method, coefficients and
 * sources: docs/hurricane-model.md#event-set.
 */
import type { Storm } from '../../../../reference-data/hurdat2.js';
import { mulberry32 } from '../../../../lib/random.js';
import type { Track, TrackFix } from '../track.js';
import { hourlyTrack, type HourlyTrack } from './hourly-track.js';
import { KD95 } from '../../../../intelligence/domain/inland-decay.js';
import { vickeryWadheraRmKm } from '../rmw.js';
import { inlandWindKt, pressureForWindKt } from './intensity.js';
import type { LandMask } from './land-mask.js';
import { normal, perturbTrack, segmentsOf } from './random-walk.js';
import type { OccurrenceRow } from '../../../shared/package/occurrence-row.js';

/** The record the catalog resamples: HURDAT2 1900-2024 (US landfalls are complete from 1900 on). */
export const HISTORICAL_PERIOD = { firstYear: 1900, lastYear: 2024 } as const;
/** A storm matters to the US if its centre comes this close to US land at 34 kt or more. */
export const US_RELEVANCE_KM = 300;
/** A kept track runs while its centre is within this distance of US land ... */
export const TRACK_WINDOW_KM = 600;
/** ... with a fix every hour within this distance (where landfalls and the strongest winds are), every 3 h beyond. */
export const HOURLY_WITHIN_KM = 200;
const OUTER_STEP_HOURS = 3;

export type { OccurrenceRow };

export interface TrackSet {
  tracks: Track[];
  occurrences: OccurrenceRow[];
  years: number;
  seed: number;
  /** Historical storms resampled, and synthetic storms drawn before the US filter. */
  parentStorms: number;
  drawnStorms: number;
}

export interface TrackSetInputs {
  storms: Storm[];
  mask: LandMask;
}

export interface TrackSetOptions {
  years: number;
  seed: number;
}

interface Workspace {
  lat: Float64Array;
  lng: Float64Array;
  dist: Float64Array;
  a: Float64Array;
  b: Float64Array;
}

function workspace(n: number): Workspace {
  return { lat: new Float64Array(n), lng: new Float64Array(n), dist: new Float64Array(n), a: new Float64Array(n), b: new Float64Array(n) };
}

export function historicalParents(storms: Storm[]): HourlyTrack[] {
  const out: HourlyTrack[] = [];
  for (const s of storms) {
    if (s.year < HISTORICAL_PERIOD.firstYear || s.year > HISTORICAL_PERIOD.lastYear) continue;
    const h = hourlyTrack(s);
    if (h) out.push(h);
  }
  return out;
}

/** Rounded output values: 0.1 km, 0.1 kt, 0.1 hPa and 1e-4° (11 m) are finer than anything downstream reads. */
const round = (x: number, step: number) => Math.round(x / step) * step;

function fix(hours: number, lat: number, lng: number, windKt: number, pressureMb: number, rmwKm: number, overLand: boolean): TrackFix {
  return { hours, lat: round(lat, 1e-4), lng: round(lng, 1e-4), windKt: round(windKt, 0.1), pressureMb: round(pressureMb, 0.1), rmwKm: round(rmwKm, 0.1), overLand };
}

/** The record's storms as tracks (every hour, whole track, the record's winds, median RMW where the record has none): the like-for-like history. */
export function historicalTracks(inputs: TrackSetInputs): Track[] {
  return historicalParents(inputs.storms).map((p, i) => ({
    eventId: i + 1,
    parentId: p.parentId,
    fixes: Array.from(p.lat, (lat, k) =>
      fix(k, lat, p.lng[k], p.windKt[k], p.pressureMb[k], Number.isNaN(p.rmwKm[k]) ? vickeryWadheraRmKm(p.pressureMb[k], lat) : p.rmwKm[k], inputs.mask.overLand(lat, p.lng[k])),
    ),
  }));
}

/**
 * The record's intensity as it would have been had the storm stayed over water: where its centre is over
 * US land, the wind and pressure of its last hour over water are held. A copy that misses the coast the
 * record's storm crossed keeps its sea intensity; one that crosses land decays by Kaplan & DeMaria itself.
 */
function seaIntensity(parent: HourlyTrack, mask: LandMask): { wind: Float64Array; pressure: Float64Array } {
  const n = parent.lat.length;
  const wind = new Float64Array(n);
  const pressure = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const held = k > 0 && mask.overLand(parent.lat[k], parent.lng[k]);
    wind[k] = held ? wind[k - 1] : parent.windKt[k];
    pressure[k] = held ? pressure[k - 1] : parent.pressureMb[k];
  }
  return { wind, pressure };
}

/** A little time in the stage, so that a stalled storm (no distance run) still moves through its record. */
const STAGE_KM_PER_HOUR = 1;

/**
 * The copy's fixes from hour `from` to `to`. Its intensity is the record's at the same along-track stage
 * (distance run), not the same hour, so that a copy running 20 % faster reaches the coast with the
 * intensity the record's storm had at the coast. Over water: the record's sea intensity (less the deficit
 * the copy brought off land, which relaxes); over US land: Kaplan & DeMaria decay from the wind at the crossing. Pressure
 * follows the wind along the record's pressure-wind curve; RMW is the record's where it has one, else
 * Vickery & Wadhera with the track's draw z.
 */
function syntheticFixes(parent: HourlyTrack, sea: { wind: Float64Array; pressure: Float64Array }, lat: Float64Array, lng: Float64Array, distKm: Float64Array, mask: LandMask, z: number, keep: (k: number) => boolean, from: number, to: number): TrackFix[] {
  const n = parent.lat.length;
  const fixes: TrackFix[] = [];
  let j = 0;
  let deficit = 0;
  let hoursAtSea = 0;
  let landfallKt = 0;
  let hoursOverLand = 0;
  let wasLand = false;
  let previousWind = 0;
  for (let k = 0; k <= to; k++) {
    // Stage: the fractional parent hour whose distance run equals the copy's.
    const stage = distKm[k] + STAGE_KM_PER_HOUR * k;
    while (j < n - 2 && parent.distKm[j + 1] + STAGE_KM_PER_HOUR * (j + 1) <= stage) j++;
    const d0 = parent.distKm[j] + STAGE_KM_PER_HOUR * j;
    const d1 = parent.distKm[j + 1] + STAGE_KM_PER_HOUR * (j + 1);
    const f = Math.min(1, Math.max(0, (stage - d0) / (d1 - d0)));
    const at = (a: Float64Array) => a[j] + (a[j + 1] - a[j]) * f;
    const seaWind = at(sea.wind);
    const land = mask.overLand(lat[k], lng[k]);
    let w: number;
    if (!land) {
      // Off land: the copy recovers towards the record's sea intensity, the deficit it brought off land
      // relaxing at the Kaplan & DeMaria rate (10.5 h e-folding) [judgement: no published recovery rate].
      if (k > 0 && wasLand) {
        deficit = Math.max(0, 1 - previousWind / Math.max(1, seaWind));
        hoursAtSea = 0;
      } else hoursAtSea++;
      w = seaWind * (1 - deficit * Math.exp(-KD95.alphaPerHour * hoursAtSea));
    } else {
      if (k === 0 || !wasLand) {
        landfallKt = k === 0 ? seaWind : seaWind * (1 - deficit * Math.exp(-KD95.alphaPerHour * (hoursAtSea + 1)));
        hoursOverLand = 0;
      } else hoursOverLand++;
      w = Math.min(seaWind, inlandWindKt(landfallKt, hoursOverLand));
    }
    wasLand = land;
    previousWind = w;
    if (k < from || !keep(k)) continue;
    const pressureMb = pressureForWindKt(w, seaWind, at(sea.pressure));
    const recordRmw = at(parent.rmwKm);
    fixes.push(fix(k - from, lat[k], lng[k], w, pressureMb, Number.isNaN(recordRmw) ? vickeryWadheraRmKm(pressureMb, lat[k], z) : recordRmw, land));
  }
  return fixes;
}

function dateOfEpochHour(hour: number): { month: number; day: number } {
  const d = new Date(hour * 3_600_000);
  return { month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export function buildTrackSet(inputs: TrackSetInputs, options: TrackSetOptions): TrackSet {
  const { years, seed } = options;
  if (!Number.isInteger(years) || years < 1) throw new Error(`years must be a positive whole number, got ${years}`);
  if (!Number.isInteger(seed)) throw new Error(`seed must be a whole number, got ${seed}`);
  const { mask } = inputs;
  const parents = historicalParents(inputs.storms);
  const historicalYears = HISTORICAL_PERIOD.lastYear - HISTORICAL_PERIOD.firstYear + 1;
  // Each record storm stands for one storm per historicalYears years, so years/historicalYears copies keep its rate.
  const copiesPerStorm = years / historicalYears;
  const rand = mulberry32(seed);
  const longest = parents.reduce((m, p) => Math.max(m, p.lat.length), 0);
  const ws = workspace(longest);
  const kept: Array<{ periodNo: number; month: number; day: number; order: number; parentId: string; fixes: TrackFix[] }> = [];
  let drawn = 0;
  for (const parent of parents) {
    const whole = Math.floor(copiesPerStorm);
    const copies = whole + (rand() < copiesPerStorm - whole ? 1 : 0);
    const n = parent.lat.length;
    if (copies === 0) continue;
    const sea = seaIntensity(parent, mask);
    const segments = segmentsOf(parent.lat, parent.lng);
    for (let c = 0; c < copies; c++) {
      drawn++;
      const periodNo = 1 + Math.floor(rand() * years);
      const z = normal(rand);
      const lat = ws.lat.subarray(0, n);
      const lng = ws.lng.subarray(0, n);
      const dist = ws.dist.subarray(0, n);
      perturbTrack(parent.lat, parent.lng, segments, rand, lat, lng, ws, dist);
      // The track window from the copy's positions; a copy that never comes near enough is dropped before its intensity is worked out.
      let first = -1;
      let last = -1;
      let near = false;
      for (let k = 0; k < n; k++) {
        const d = mask.distanceToUsKm(lat[k], lng[k]);
        if (d <= TRACK_WINDOW_KM) {
          if (first < 0) first = k;
          last = k;
        }
        if (d <= US_RELEVANCE_KM) near = true;
      }
      if (!near) continue;
      const keep = (k: number) => k === first || k === last || (k - first) % OUTER_STEP_HOURS === 0 || mask.distanceToUsKm(lat[k], lng[k]) <= HOURLY_WITHIN_KM;
      const fixes = syntheticFixes(parent, sea, lat, lng, dist, mask, z, keep, first, last);
      if (!fixes.some((f) => f.windKt >= 34 && mask.distanceToUsKm(f.lat, f.lng) <= US_RELEVANCE_KM)) continue;
      const { month, day } = dateOfEpochHour(parent.startHour + first);
      kept.push({ periodNo, month, day, order: kept.length, parentId: parent.parentId, fixes });
    }
  }
  kept.sort((a, b) => a.periodNo - b.periodNo || a.month - b.month || a.day - b.day || a.order - b.order);
  const tracks: Track[] = [];
  const occurrences: OccurrenceRow[] = [];
  kept.forEach((e, i) => {
    tracks.push({ eventId: i + 1, parentId: e.parentId, fixes: e.fixes });
    occurrences.push({ eventId: i + 1, periodNo: e.periodNo, occYear: e.periodNo, occMonth: e.month, occDay: e.day });
  });
  return { tracks, occurrences, years, seed, parentStorms: parents.length, drawnStorms: drawn };
}
