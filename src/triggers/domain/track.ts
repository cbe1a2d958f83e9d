/**
 * Positions along a storm track for cat-in-a-circle evaluation. Best-track fixes are 6 h apart (plus
 * special fixes at landfall): a storm moving 20 km/h covers 120 km between two fixes, so a 50 km circle
 * can be crossed with no fix inside it. We therefore also sample each segment between consecutive fixes
 * by linear interpolation of position, wind and pressure (the usual treatment of best-track data between
 * synoptic times), every SAMPLE_KM or closer, but only on segments that pass within the circle.
 */
import { fittedBBetween, fixFittedB, type MeanRadiiNm } from './record-profile.js';
import { flatKm } from './site-wind.js';

export interface TrackFix {
  /** ISO 8601 UTC. */
  at: string;
  lat: number;
  lng: number;
  windKt: number;
  pressureMb: number | null;
  /** The record's radius of maximum wind (nm) at this fix; absent when the record gives none. */
  rmwNm?: number;
  /** The record's wind radii (nm, mean of the four quadrants) at this fix; absent when none. */
  radiiNm?: MeanRadiiNm;
}

export interface TrackPoint {
  /** A stored fix's time; null for an interpolated point (timeAt gives it when needed, which is rare). */
  at: string | null;
  /** Where the point lies: fix `from`, or `f` (0-1) of the way to the next fix. */
  from: number;
  f: number;
  lat: number;
  lng: number;
  windKt: number;
  pressureMb: number | null;
  rmwNm: number | null;
  fittedB: number | null;
  distanceKm: number;
}

/** Spacing of interpolated points (km): small against a 50 km circle and against the radius of maximum wind. */
export const SAMPLE_KM = 5;
const KM_PER_DEG = 111.195;

/**
 * Visits every fix (sorted by time) with its distance from the site, and interpolated points on the
 * segments whose nearest point lies within radiusKm. A visitor, not a list: an evaluation round walks
 * thousands of (trigger, storm) pairs and keeps only the best point of each, so nothing is allocated
 * per point (the reused `p` is valid only during the call).
 */
export function walkTrack(
  fixes: TrackFix[],
  site: { lat: number; lng: number },
  radiusKm: number,
  visit: (p: TrackPoint) => void,
): void {
  const cos = Math.cos((site.lat * Math.PI) / 180);
  const p: TrackPoint = {
    at: null,
    from: 0,
    f: 0,
    lat: 0,
    lng: 0,
    windKt: 0,
    pressureMb: null,
    rmwNm: null,
    fittedB: null,
    distanceKm: 0,
  };
  for (let i = 0; i < fixes.length; i++) {
    const a = fixes[i];
    p.at = a.at;
    p.from = i;
    p.f = 0;
    p.lat = a.lat;
    p.lng = a.lng;
    p.windKt = a.windKt;
    p.pressureMb = a.pressureMb;
    p.rmwNm = a.rmwNm ?? null;
    p.fittedB = fixFittedB(a);
    p.distanceKm = flatKm(site.lat, site.lng, a.lat, a.lng);
    visit(p);
    const b = fixes[i + 1];
    if (!b || !segmentMayEnter(a, b, site, cos, radiusKm)) continue;
    const n = Math.ceil(flatKm(a.lat, a.lng, b.lat, b.lng) / SAMPLE_KM);
    for (let k = 1; k < n; k++) {
      const f = k / n;
      p.at = null;
      p.from = i;
      p.f = f;
      p.lat = a.lat + (b.lat - a.lat) * f;
      p.lng = a.lng + (b.lng - a.lng) * f;
      p.windKt = a.windKt + (b.windKt - a.windKt) * f;
      p.pressureMb =
        a.pressureMb !== null && b.pressureMb !== null ? a.pressureMb + (b.pressureMb - a.pressureMb) * f : null;
      p.rmwNm = a.rmwNm !== undefined && b.rmwNm !== undefined ? a.rmwNm + (b.rmwNm - a.rmwNm) * f : null;
      p.fittedB = p.rmwNm === null ? null : fittedBBetween(a, b, f);
      p.distanceKm = flatKm(site.lat, site.lng, p.lat, p.lng);
      visit(p);
    }
  }
}

/** The instant `f` (0-1) of the way from fix `from` to the next: the fix's own time at 0, else to the minute (receipts name it). */
export function timeAt(fixes: TrackFix[], from: number, f: number): string {
  if (f === 0) return fixes[from].at;
  const ta = Date.parse(fixes[from].at);
  const tb = Date.parse(fixes[from + 1].at);
  return new Date(Math.round((ta + (tb - ta) * f) / 60_000) * 60_000).toISOString().replace('.000Z', 'Z');
}

/**
 * True when the segment's nearest point to the site (in a local flat projection) lies within the circle,
 * with 2 % + 1 km of slack for the projection, so no segment that flatKm would put inside is skipped.
 */
function segmentMayEnter(
  a: TrackFix,
  b: TrackFix,
  site: { lat: number; lng: number },
  cos: number,
  radiusKm: number,
): boolean {
  const ax = (a.lng - site.lng) * cos * KM_PER_DEG;
  const ay = (a.lat - site.lat) * KM_PER_DEG;
  const dx = (b.lng - a.lng) * cos * KM_PER_DEG;
  const dy = (b.lat - a.lat) * KM_PER_DEG;
  const len2 = dx * dx + dy * dy;
  const t = len2 > 0 ? Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2)) : 0;
  const x = ax + t * dx;
  const y = ay + t * dy;
  return Math.sqrt(x * x + y * y) <= radiusKm * 1.02 + 1;
}
