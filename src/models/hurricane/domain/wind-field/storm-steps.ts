/**
 * A track resampled every STEP_MINUTES: position, intensity and size interpolated linearly between fixes,
 * with the translation vector of the segment each step lies on. Best-track fixes are 6 h apart, and a
 * storm moving 20 km/h covers 120 km between them, several times its radius of maximum wind; a footprint
 * sampled only at the fixes would show beads along the track. At 15 min a storm moving at 40 km/h moves
 * 10 km between steps, well inside a typical Rm (20–60 km), so the peak gust per cell is smooth.
 */
import { KT_TO_MS } from '../../../../lib/numerics/units.js';
import type { Track } from '../track.js';
import { gradientProfile, type GradientProfile } from './holland.js';
import { BACKGROUND_FRACTION, SURFACE_REDUCTION } from './surface.js';

export const STEP_MINUTES = 15;
const KM_PER_DEG = 111.195;

export interface StormStep {
  lat: number;
  lng: number;
  /** Translation velocity (m/s), east and north. */
  vEastMs: number;
  vNorthMs: number;
  /** The vortex's gradient profile, its peak set so that the surface wind plus motion equals the record's Vmax. */
  profile: GradientProfile;
  /** Record Vmax (1-min marine, m/s), for bounds. */
  vmaxMs: number;
}

/** Translation (m/s east, north) between two fixes. */
function translation(a: { hours: number; lat: number; lng: number }, b: { hours: number; lat: number; lng: number }): [number, number] {
  const dt = (b.hours - a.hours) * 3600;
  if (!(dt > 0)) return [0, 0];
  const cos = Math.cos((((a.lat + b.lat) / 2) * Math.PI) / 180);
  return [((b.lng - a.lng) * cos * KM_PER_DEG * 1000) / dt, ((b.lat - a.lat) * KM_PER_DEG * 1000) / dt];
}

export function stormSteps(track: Track, stepMinutes = STEP_MINUTES): StormStep[] {
  const fx = track.fixes;
  const out: StormStep[] = [];
  if (fx.length === 0) return out;
  const stepH = stepMinutes / 60;
  const push = (t: number, seg: number) => {
    const a = fx[seg];
    const b = fx[Math.min(seg + 1, fx.length - 1)];
    const span = b.hours - a.hours;
    const w = span > 0 ? (t - a.hours) / span : 0;
    const lerp = (x: number, y: number) => x + (y - x) * w;
    const [ve, vn] = fx.length > 1 ? translation(seg + 1 < fx.length ? a : fx[seg - 1], seg + 1 < fx.length ? b : a) : [0, 0];
    const lat = lerp(a.lat, b.lat);
    const vmaxMs = lerp(a.windKt, b.windKt) * KT_TO_MS;
    const vortexPeak = Math.max(vmaxMs - BACKGROUND_FRACTION * Math.hypot(ve, vn), 0.5 * vmaxMs);
    out.push({
      lat,
      lng: lerp(a.lng, b.lng),
      vEastMs: ve,
      vNorthMs: vn,
      vmaxMs,
      profile: gradientProfile(vortexPeak / SURFACE_REDUCTION, lerp(a.pressureMb, b.pressureMb), lerp(a.rmwKm, b.rmwKm), lat),
    });
  };
  let seg = 0;
  const end = fx[fx.length - 1].hours;
  for (let t = fx[0].hours; t <= end + 1e-9; t += stepH) {
    while (seg + 1 < fx.length - 1 && fx[seg + 1].hours <= t) seg++;
    push(t, seg);
  }
  return out;
}
