/**
 * Positions along a storm track for cat-in-a-circle evaluation. Best-track fixes are 6 h apart (plus
 * special fixes at landfall): a storm moving 20 km/h covers 120 km between two fixes, so a 50 km circle
 * can be crossed with no fix inside it. We therefore also sample each segment between consecutive fixes
 * by linear interpolation of position, wind and pressure (the usual treatment of best-track data between
 * synoptic times), every SAMPLE_KM or closer, but only on segments that pass within reach of the site.
 */
import { flatKm } from './site-wind.js';

export interface TrackFix {
  /** ISO 8601 UTC. */
  at: string;
  lat: number;
  lng: number;
  windKt: number;
  pressureMb: number | null;
}

export interface TrackPoint extends TrackFix {
  distanceKm: number;
  /** True for a stored fix, false for a point interpolated between two fixes. */
  fix: boolean;
}

/** Spacing of interpolated points (km): small against a 50 km circle and against the radius of maximum wind. */
export const SAMPLE_KM = 5;

/** Fixes (sorted by time) and interpolated points whose segment passes within reachKm of the site, each with its distance. */
export function trackPoints(fixes: TrackFix[], site: { lat: number; lng: number }, reachKm: number): TrackPoint[] {
  const out: TrackPoint[] = [];
  for (let i = 0; i < fixes.length; i++) {
    const a = fixes[i];
    const da = flatKm(site.lat, site.lng, a.lat, a.lng);
    out.push({ ...a, distanceKm: da, fix: true });
    const b = fixes[i + 1];
    if (!b) break;
    const segKm = flatKm(a.lat, a.lng, b.lat, b.lng);
    const db = flatKm(site.lat, site.lng, b.lat, b.lng);
    // No point of the segment can be nearer the site than (nearer end − half the segment's length).
    if (Math.min(da, db) - segKm / 2 > reachKm) continue;
    const n = Math.ceil(segKm / SAMPLE_KM);
    const ta = Date.parse(a.at);
    const tb = Date.parse(b.at);
    for (let k = 1; k < n; k++) {
      const f = k / n;
      const lat = a.lat + (b.lat - a.lat) * f;
      const lng = a.lng + (b.lng - a.lng) * f;
      const pressureMb = a.pressureMb !== null && b.pressureMb !== null ? a.pressureMb + (b.pressureMb - a.pressureMb) * f : null;
      // Minute resolution: receipts name the instant the value applies to.
      const at = new Date(Math.round((ta + (tb - ta) * f) / 60_000) * 60_000).toISOString().replace('.000Z', 'Z');
      out.push({ at, lat, lng, windKt: a.windKt + (b.windKt - a.windKt) * f, pressureMb, distanceKm: flatKm(site.lat, site.lng, lat, lng), fix: false });
    }
  }
  return out;
}
