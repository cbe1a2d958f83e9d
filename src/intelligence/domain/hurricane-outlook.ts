/**
 * The hurricane part of the prediction: the source's forecast when it gives one (the ATCF b-deck the
 * embedded default holds does not), otherwise inland decay after landfall (Kaplan & DeMaria 1995,
 * inland-decay.ts). Landfall is the first best-track fix over land after a fix over water, the most recent
 * such crossing; the wind at the coast (V0) is the last over-water fix's wind, before land took hold.
 *
 * The decay runs only while the centre is over land. The track ahead is the latest motion carried forward
 * (persistence: the displacement since the fix about 6 h before the latest, per hour), and the wind is
 * stepped along it from the latest fix's observed wind: over land it decays by the Kaplan & DeMaria
 * exponential (the model's V − Vb falls by e^(−α·dt) whatever the time since landfall, so restarting it
 * from an observation is the same model), a new crossing from water to land takes the factor R, and over
 * water the wind holds (persistence; no intensification model). Ian at 2022-09-29 03:32Z re-emerges over
 * the Atlantic about 11 h after its 00Z fix and holds a tropical storm, where decay from landfall alone said
 * a depression. Pure: the caller says which points are over land.
 */
import { decayStepKt, decayedWindKt, KD95, stormLabel } from './inland-decay.js';

export interface Fix {
  at: string;
  lat: number;
  lng: number;
  windKt: number;
}

export interface HurricaneOutlook {
  latest_fix: { at: string; lat: number; lng: number; wind_kt: number; over_land: boolean } | null;
  landfall: { at: string; lat: number; lng: number; wind_kt_at_coast: number } | null;
  projected: ProjectedPoint[];
  state: 'inland_decay' | 'over_water' | 'no_fixes';
  /** The model against the latest fix after landfall, when there is one: how well the decay tracks this storm. */
  check: { at: string; observed_kt: number; modelled_kt: number } | null;
}

/** One point of the projected track: where the centre would be, whether that is land, and the wind there. */
export interface ProjectedPoint {
  hours: number;
  at: string;
  hours_since_landfall: number;
  lat: number;
  lng: number;
  over_land: boolean;
  /** Hours the projected centre spends over land between the latest fix and this point. */
  hours_over_land: number;
  wind_kt: number;
  label: string;
}

const HOUR_MS = 3_600_000;
export const OUTLOOK_HOURS = [6, 12, 24, 48] as const;
/** The motion is the displacement since the latest fix at least this long before the latest one. */
const MOTION_WINDOW_HOURS = 6;
/** Step of the walk along the projected track (h): fine enough to find a coast crossing within ~5 km at 10 kt. */
const STEP_HOURS = 0.25;

export function hurricaneOutlook(
  fixes: Fix[],
  isLand: (lat: number, lng: number) => boolean,
  validAt: string,
): HurricaneOutlook {
  const f = [...fixes].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  if (f.length === 0) return { latest_fix: null, landfall: null, projected: [], state: 'no_fixes', check: null };
  const land = f.map((x) => isLand(x.lat, x.lng));
  const last = f[f.length - 1];
  const latestFix = {
    at: last.at,
    lat: last.lat,
    lng: last.lng,
    wind_kt: last.windKt,
    over_land: land[land.length - 1],
  };
  if (!land[land.length - 1])
    return { latest_fix: latestFix, landfall: null, projected: [], state: 'over_water', check: null };
  let k = land.length - 1;
  while (k > 0 && land[k - 1]) k--;
  if (k === 0) {
    // Every fix is over land (a storm first tracked inland): no crossing to anchor the decay.
    return { latest_fix: latestFix, landfall: null, projected: [], state: 'no_fixes', check: null };
  }
  const coast = f[k - 1];
  const landfall = { at: f[k].at, lat: f[k].lat, lng: f[k].lng, wind_kt_at_coast: coast.windKt };
  const t0 = Date.parse(landfall.at);
  const fromNow = Date.parse(validAt);
  const walk = walkTrack(f, isLand);
  const projected = OUTLOOK_HOURS.map((h) => {
    const at = fromNow + h * HOUR_MS;
    const since = (at - t0) / HOUR_MS;
    const p = walk((at - Date.parse(last.at)) / HOUR_MS);
    return {
      hours: h,
      at: new Date(at).toISOString(),
      hours_since_landfall: round1(since),
      lat: round2(p.lat),
      lng: round2(p.lng),
      over_land: p.overLand,
      hours_over_land: round1(p.hoursOverLand),
      wind_kt: round1(p.windKt),
      label: stormLabel(p.windKt),
    };
  });
  const check =
    f.length - 1 > k || Date.parse(last.at) > t0
      ? {
          at: last.at,
          observed_kt: last.windKt,
          modelled_kt: round1(decayedWindKt(coast.windKt, (Date.parse(last.at) - t0) / HOUR_MS)),
        }
      : null;
  return { latest_fix: latestFix, landfall, projected, state: 'inland_decay', check };
}

/**
 * The projected track from the latest fix, by persistence of its motion, and the wind along it: a function
 * of the hours after the latest fix (negative or zero: the latest fix itself).
 */
function walkTrack(f: Fix[], isLand: (lat: number, lng: number) => boolean) {
  const last = f[f.length - 1];
  const tLast = Date.parse(last.at);
  const before = [...f].reverse().find((x) => tLast - Date.parse(x.at) >= MOTION_WINDOW_HOURS * HOUR_MS) ?? f[0];
  const dh = (tLast - Date.parse(before.at)) / HOUR_MS;
  const [vLat, vLng] = dh > 0 ? [(last.lat - before.lat) / dh, (last.lng - before.lng) / dh] : [0, 0];
  return (hours: number) => {
    let windKt = last.windKt;
    let overLand = isLand(last.lat, last.lng);
    let hoursOverLand = 0;
    // Whole steps on one grid from the latest fix, so every horizon sees the same crossings.
    const steps = Math.floor(hours / STEP_HOURS + 1e-9);
    for (let k = 1; k <= steps; k++) {
      const t = k * STEP_HOURS;
      const land = isLand(last.lat + vLat * t, last.lng + vLng * t);
      if (land) {
        if (!overLand) windKt *= KD95.reduction; // a new landfall along the projected track
        windKt = decayStepKt(windKt, STEP_HOURS);
        hoursOverLand += STEP_HOURS;
      }
      overLand = land;
    }
    const t = Math.max(0, hours);
    const [lat, lng] = [last.lat + vLat * t, last.lng + vLng * t];
    return { lat, lng, overLand: isLand(lat, lng), hoursOverLand, windKt };
  };
}

export const KD95_METHOD = {
  name: 'Kaplan & DeMaria (1995) inland decay, over land only along the projected track',
  formula:
    'V(t) = Vb + (R*V0 - Vb) * exp(-alpha*t), t hours over land; stepped from the latest fix: V -> Vb + (V - Vb) * exp(-alpha*dt) while the projected centre is over land, V held over water, V -> R*V at a new landfall',
  parameters: { alpha_per_hour: KD95.alphaPerHour, R: KD95.reduction, Vb_kt: KD95.backgroundKt },
  reference:
    'Kaplan, J. and DeMaria, M. (1995): A simple empirical model for predicting the decay of tropical cyclone winds after landfall. J. Appl. Meteor. 34, 2499-2512',
};

const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
