/**
 * A live hurricane as model tracks (docs/event-loss.md#hurricane-ensemble): the track observed so far, and
 * members that follow it and then one perturbation each of the forecast of the rest.
 *
 * The forecast is NHC's when the store holds one for the storm (the forecast points of its latest GIS
 * advisory); otherwise persistence: the latest motion (since the fix at least MOTION_WINDOW_HOURS before
 * the latest) carried forward, the latest wind held over water and decayed over land by Kaplan & DeMaria
 * (1995), the same decay the event's prediction uses. Each member shifts the forecast position by one
 * draw along and one across the motion, each scaled by the σ of NHC's track errors at the lead time, and
 * the wind by one draw scaled by the σ of its intensity errors (nhc-forecast-errors.ts): one draw per
 * member, so a member is a coherent alternative track whose error grows with lead time as NHC's do.
 *
 * Size and pressure: the latest observed radius of maximum wind is held (Vickery & Wadhera 2008 where the
 * record gives none); the central pressure keeps the latest observed deficit, scaled with the wind by
 * Atkinson & Holliday (1977), so the vortex stays the observed one.
 */
import { decayStepKt, KD95 } from '../intelligence/domain/inland-decay.js';
import { KM_PER_NM } from '../lib/geo.js';
import { mulberry32 } from '../lib/random.js';
import { cellOf, GRID_COLS, type LandGrid } from '../models/hurricane/domain/footprint/grid.js';
import { pressureFromWindHpa, vickeryWadheraRmKm } from '../models/hurricane/domain/rmw.js';
import type { Track, TrackFix } from '../models/hurricane/domain/track.js';
import { normal } from '../models/hurricane/domain/track-set/random-walk.js';
import { intensitySigmaKt, trackSigmaKm } from './nhc-forecast-errors.js';

const HOUR_MS = 3_600_000;
const KM_PER_DEG = 111.195;
/** The motion carried forward is the displacement since the latest fix at least this long before the latest. */
export const MOTION_WINDOW_HOURS = 6;
/** How far persistence is carried: NHC's track errors beyond it are larger than a straight line is useful for. */
export const PERSISTENCE_HOURS = 72;
/** Member fixes are hourly (the wind field interpolates every 15 minutes between them). */
const STEP_HOURS = 1;
/** No member's wind drops below this (a depression's), whatever its draw. */
const FLOOR_KT = 15;
/** Atkinson & Holliday's exponent (rmw.ts): Vmax ∝ Δp^0.644. */
const AH77_EXPONENT = 0.644;
const AH77_AMBIENT_HPA = 1010;

export interface ObservedFix {
  at: string;
  lat: number;
  lng: number;
  windKt: number;
  pressureMb: number | null;
  rmwNm: number | null;
}

/** A point of NHC's forecast: hours after the latest fix, position, maximum sustained wind. */
export interface ForecastPoint {
  leadHours: number;
  lat: number;
  lng: number;
  windKt: number;
}

export interface StormEnsemble {
  /** Event 1: the observed track alone. */
  observed: Track;
  /** Events 2..: the observed track, then one perturbed forecast each. */
  members: Track[];
  /** Where the forecast came from. */
  forecast: 'nhc' | 'persistence' | 'none';
  forecastHours: number;
}

const isLandOf = (grid: LandGrid) => (lat: number, lng: number) => {
  const c = cellOf(lat, lng);
  return c !== null && grid.land[c.row * GRID_COLS + c.col] === 1;
};

function observedTrack(fixes: ObservedFix[], grid: LandGrid): Track {
  const land = isLandOf(grid);
  const t0 = Date.parse(fixes[0].at);
  const out: TrackFix[] = fixes.map((f) => {
    const pressureMb = f.pressureMb ?? pressureFromWindHpa(f.windKt);
    return {
      hours: (Date.parse(f.at) - t0) / HOUR_MS,
      lat: f.lat,
      lng: f.lng,
      windKt: f.windKt,
      pressureMb,
      rmwKm: f.rmwNm !== null ? f.rmwNm * KM_PER_NM : vickeryWadheraRmKm(pressureMb, f.lat),
      overLand: land(f.lat, f.lng),
    };
  });
  return { eventId: 1, parentId: 'observed', fixes: out };
}

/** The base forecast, hourly from the latest fix: NHC's points interpolated, or persistence. */
function baseForecast(
  fixes: ObservedFix[],
  nhc: ForecastPoint[] | null,
  land: (lat: number, lng: number) => boolean,
): { lat: number; lng: number; windKt: number | null; leadHours: number }[] {
  const last = fixes[fixes.length - 1];
  const out: { lat: number; lng: number; windKt: number | null; leadHours: number }[] = [];
  if (nhc && nhc.length > 0) {
    const pts = [
      { leadHours: 0, lat: last.lat, lng: last.lng, windKt: last.windKt },
      ...[...nhc].sort((a, b) => a.leadHours - b.leadHours),
    ];
    const end = pts[pts.length - 1].leadHours;
    let k = 0;
    for (let h = STEP_HOURS; h <= end + 1e-9; h += STEP_HOURS) {
      while (k + 1 < pts.length - 1 && pts[k + 1].leadHours < h) k++;
      const a = pts[k];
      const b = pts[k + 1];
      const w = (h - a.leadHours) / (b.leadHours - a.leadHours);
      out.push({
        leadHours: h,
        lat: a.lat + (b.lat - a.lat) * w,
        lng: a.lng + (b.lng - a.lng) * w,
        windKt: a.windKt + (b.windKt - a.windKt) * w,
      });
    }
    return out;
  }
  const lastMs = Date.parse(last.at);
  const before = [...fixes].reverse().find((f) => lastMs - Date.parse(f.at) >= MOTION_WINDOW_HOURS * HOUR_MS);
  if (!before) return out;
  const dt = (lastMs - Date.parse(before.at)) / HOUR_MS;
  const vLat = (last.lat - before.lat) / dt;
  const vLng = (last.lng - before.lng) / dt;
  for (let h = STEP_HOURS; h <= PERSISTENCE_HOURS + 1e-9; h += STEP_HOURS) {
    const lat = last.lat + vLat * h;
    const lng = last.lng + vLng * h;
    out.push({ leadHours: h, lat, lng, windKt: null });
    if (!land(lat, lng) && Math.abs(lat) > 60) break;
  }
  return out;
}

/**
 * The ensemble of `members` tracks for a storm observed at `fixes` (ascending time, at least one), with
 * NHC's forecast when given. Same fixes, forecast, members and seed: the same tracks.
 */
export function stormEnsemble(
  fixes: ObservedFix[],
  nhc: ForecastPoint[] | null,
  o: { members: number; seed: number; grid: LandGrid; forecast: boolean },
): StormEnsemble {
  const observed = observedTrack(fixes, o.grid);
  const land = isLandOf(o.grid);
  const base = o.forecast ? baseForecast(fixes, nhc, land) : [];
  const source: StormEnsemble['forecast'] = base.length === 0 ? 'none' : nhc && nhc.length > 0 ? 'nhc' : 'persistence';
  const last = fixes[fixes.length - 1];
  const lastFix = observed.fixes[observed.fixes.length - 1];
  const deficit = AH77_AMBIENT_HPA - lastFix.pressureMb;
  const pressureOf = (windKt: number) =>
    deficit > 0 && last.windKt > 0
      ? AH77_AMBIENT_HPA - deficit * (windKt / last.windKt) ** (1 / AH77_EXPONENT)
      : pressureFromWindHpa(windKt);
  const rand = mulberry32(o.seed);
  const members: Track[] = [];
  for (let m = 0; m < o.members; m++) {
    const zAlong = normal(rand);
    const zAcross = normal(rand);
    const zWind = normal(rand);
    const fx: TrackFix[] = [...observed.fixes];
    let windOverLand = last.windKt;
    let wasLand = lastFix.overLand;
    for (let i = 0; i < base.length; i++) {
      const b = base[i];
      // The direction of motion of the base forecast at this point, to split the error along and across it.
      const a = i === 0 ? { lat: last.lat, lng: last.lng } : base[i - 1];
      const kx = Math.cos((b.lat * Math.PI) / 180);
      let ux = (b.lng - a.lng) * kx;
      let uy = b.lat - a.lat;
      const norm = Math.hypot(ux, uy);
      if (norm > 0) {
        ux /= norm;
        uy /= norm;
      } else {
        ux = 0;
        uy = 1;
      }
      const s = trackSigmaKm(b.leadHours) / KM_PER_DEG;
      const east = zAlong * s * ux - zAcross * s * uy;
      const north = zAlong * s * uy + zAcross * s * ux;
      const lat = b.lat + north;
      const lng = b.lng + east / kx;
      const overLand = land(lat, lng);
      let windKt: number;
      if (b.windKt !== null) {
        windKt = b.windKt + zWind * intensitySigmaKt(b.leadHours);
      } else if (overLand) {
        // Kaplan & DeMaria: the reduction R at the coast, then e^(-αt) decay of V - Vb.
        windOverLand = decayStepKt(wasLand ? windOverLand : KD95.reduction * windOverLand, STEP_HOURS);
        windKt = windOverLand + zWind * intensitySigmaKt(b.leadHours);
      } else {
        windOverLand = last.windKt;
        windKt = last.windKt + zWind * intensitySigmaKt(b.leadHours);
      }
      wasLand = overLand;
      windKt = Math.max(FLOOR_KT, windKt);
      const pressureMb = pressureOf(windKt);
      fx.push({ hours: lastFix.hours + b.leadHours, lat, lng, windKt, pressureMb, rmwKm: lastFix.rmwKm, overLand });
    }
    members.push({ eventId: m + 2, parentId: `member ${m + 1}`, fixes: fx });
  }
  return { observed, members, forecast: source, forecastHours: base.length ? base[base.length - 1].leadHours : 0 };
}
