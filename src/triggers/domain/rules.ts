/**
 * The value at a trigger site, its proximity to the threshold and the trigger state, from one event's
 * stored inputs (docs/triggers.md#rules). Pure: the same inputs
 * always give the same answer, which is what `trigger verify` relies on. Any change to these rules must
 * bump RULE_VERSION, so that receipts name the rules that produced them and a re-run records anew.
 */
import { proximityPct, roundPct, stateOf } from './proximity.js';
import { describeProfile, positionProfile, siteWindKt, type PositionProfile } from './site-wind.js';
import { timeAt, walkTrack, type TrackFix } from './track.js';
import { THRESHOLD_UNIT, type TriggerSpec, type TriggerState } from './types.js';
import { flatKm } from './site-wind.js';

/**
 * 2: the wind profile takes the record's radius of maximum wind and wind radii where it gives them; gauge
 * stages are kept to 0.01 ft as USGS publishes them.
 */
export const RULE_VERSION = 'catintel-trigger-rules/2';

/** What a trigger is evaluated against: its site, circle and threshold. */
export type TriggerCriteria = Pick<
  TriggerSpec,
  'lat' | 'lng' | 'radius_km' | 'threshold_type' | 'threshold_value' | 'alert_at_pct'
>;

export interface PointReading {
  at: string;
  value: number;
  unit: string;
  lat: number;
  lng: number;
}

export interface EnteredReading {
  id: string;
  /** Order of entry for the trigger: breaks ties between values reported for the same instant. */
  seq: number;
  at: string;
  value: number;
  unit: string;
  source: string;
}

/** The stored inputs of one evaluation: enough to recompute it (kept in each history entry). */
export type EvalInputs =
  | { kind: 'track'; radius_scale: number; fixes: TrackFix[] }
  | { kind: 'readings'; readings: PointReading[] }
  | { kind: 'entered'; readings: EnteredReading[] };

export interface Evaluation {
  observed_at: string | null;
  observed_value: number | null;
  unit: string;
  distance_km: number | null;
  proximity_pct: number;
  state: TriggerState;
  method: string;
}

/** How the value was obtained, named in every history entry. */
export const METHODS = {
  wind: "site_wind_holland: wind at the site from the Holland profile of the worst track position (fix or interpolated) whose centre is within radius_km; Rm is the record's radius of maximum wind where it gives one (B fitted to its wind radii), else the calibrated statistical profile",
  pressure:
    'min_central_pressure_in_circle: lowest central pressure of the track positions (fix or interpolated) whose centre is within radius_km',
  magnitude: 'latest_magnitude_in_circle: the latest USGS magnitude of an epicentre within radius_km',
  readings: 'max_reading_in_circle: highest reading up to now at a gauge within radius_km',
  entered: 'entered_observation: the latest value entered with `catintel trigger observe`',
} as const;

const round1 = (x: number) => Math.round(x * 10) / 10;
const TWO_DECIMALS: ReadonlySet<string> = new Set(['magnitude', 'gauge_stage_ft']);

export function evaluate(t: TriggerCriteria, inputs: EvalInputs): Evaluation {
  const unit = THRESHOLD_UNIT[t.threshold_type];
  const picked = pick(t, inputs);
  const pct = roundPct(proximityPct(t.threshold_type, picked.value, t.threshold_value));
  return {
    observed_at: picked.at,
    // Magnitudes and gauge stages are published to two decimals (USGS); everything else is shown to 0.1 of its unit.
    observed_value:
      picked.value === null
        ? null
        : TWO_DECIMALS.has(t.threshold_type)
          ? Math.round(picked.value * 100) / 100
          : round1(picked.value),
    unit,
    distance_km: picked.distanceKm === null ? null : round1(picked.distanceKm),
    proximity_pct: pct,
    state: stateOf(pct, t.alert_at_pct),
    method: picked.method,
  };
}

/**
 * The unrounded value at the trigger's site from these inputs (the worst in the circle; null when nothing
 * is inside), as evaluate() decides with it: what a basis-risk study or an ensemble compares to other
 * thresholds without walking the track again.
 */
export function siteValue(t: TriggerCriteria, inputs: EvalInputs): number | null {
  return pick(t, inputs).value;
}

/** Whether a value at the site fires a trigger of this type at this threshold: the state evaluate() would give. */
export function firesAt(type: TriggerCriteria['threshold_type'], value: number | null, threshold: number): boolean {
  return stateOf(roundPct(proximityPct(type, value, threshold)), 100) === 'triggered';
}

interface Picked {
  at: string | null;
  value: number | null;
  distanceKm: number | null;
  method: string;
}

function pick(t: TriggerCriteria, inputs: EvalInputs): Picked {
  if (inputs.kind === 'entered') {
    const latest = [...inputs.readings].sort((a, b) => a.at.localeCompare(b.at) || a.seq - b.seq).pop();
    return { at: latest?.at ?? null, value: latest?.value ?? null, distanceKm: null, method: METHODS.entered };
  }
  if (inputs.kind === 'readings') {
    const withDist = inputs.readings.map((r) => ({ r, d: flatKm(t.lat, t.lng, r.lat, r.lng) }));
    const inCircle = withDist.filter((x) => x.d <= t.radius_km);
    const method = t.threshold_type === 'magnitude' ? METHODS.magnitude : METHODS.readings;
    if (inCircle.length === 0)
      return nearestOnly(
        withDist.map((x) => ({ at: x.r.at, distanceKm: x.d })),
        method,
      );
    // A revised magnitude supersedes the earlier one; gauge and surge readings count at their highest.
    const chosen =
      t.threshold_type === 'magnitude'
        ? inCircle.reduce((a, b) => (b.r.at > a.r.at ? b : a))
        : inCircle.reduce((a, b) => (b.r.value > a.r.value || (b.r.value === a.r.value && b.r.at < a.r.at) ? b : a));
    return { at: chosen.r.at, value: chosen.r.value, distanceKm: chosen.d, method };
  }
  // One walk along the track: the nearest point, and the worst point inside the circle. Kept as scalars
  // (fix index, fraction, distance), not copies: a round walks thousands of tracks.
  const pressure = t.threshold_type === 'central_pressure_mb';
  let nearD = Infinity,
    nearFrom = -1,
    nearF = 0;
  let bestD = 0,
    bestFrom = -1,
    bestF = 0;
  let bestValue = pressure ? Infinity : -1;
  let bestProfile: PositionProfile | null = null;
  walkTrack(inputs.fixes, t, t.radius_km, (p) => {
    if (p.distanceKm < nearD) [nearD, nearFrom, nearF] = [p.distanceKm, p.from, p.f];
    if (p.distanceKm > t.radius_km) return;
    if (pressure) {
      if (p.pressureMb !== null && p.pressureMb < bestValue)
        [bestValue, bestD, bestFrom, bestF] = [p.pressureMb, p.distanceKm, p.from, p.f];
      return;
    }
    // The profile never exceeds the point's Vmax: a point no stronger than the best so far cannot win.
    if (p.windKt <= bestValue) return;
    const kt = siteWindKt(p, p.distanceKm, inputs.radius_scale);
    // The profile object only for a new best: the receipt names it; the walk itself allocates nothing.
    if (kt > bestValue)
      [bestValue, bestD, bestFrom, bestF, bestProfile] = [
        kt,
        p.distanceKm,
        p.from,
        p.f,
        positionProfile(p, inputs.radius_scale),
      ];
  });
  // The receipt names the profile that decided: which Rm and which B, and where each came from.
  const method = pressure
    ? METHODS.pressure
    : bestProfile
      ? `${METHODS.wind}. Here: ${describeProfile(bestProfile)}`
      : METHODS.wind;
  if (bestFrom >= 0) return { at: timeAt(inputs.fixes, bestFrom, bestF), value: bestValue, distanceKm: bestD, method };
  return {
    at: nearFrom >= 0 ? timeAt(inputs.fixes, nearFrom, nearF) : null,
    value: null,
    distanceKm: nearFrom >= 0 ? nearD : null,
    method,
  };
}

/** Nothing inside the circle: the nearest approach is recorded, the value is none and proximity 0 (docs/triggers.md#rules). */
function nearestOnly(points: { at: string; distanceKm: number }[], method: string): Picked {
  if (points.length === 0) return { at: null, value: null, distanceKm: null, method };
  const n = points.reduce((a, b) => (b.distanceKm < a.distanceKm ? b : a));
  return { at: n.at, value: null, distanceKm: n.distanceKm, method };
}
