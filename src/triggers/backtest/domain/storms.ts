/**
 * Replay of historical storm tracks (HURDAT2) against one wind or pressure trigger, cat-in-a-circle
 * (docs/triggers-backtest.md#the-rule-the-same-as-live-evaluation), by the same rule live evaluation applies
 * (src/triggers/domain/rules.ts, track.ts): the track is interpolated every SAMPLE_KM between the 6-hourly
 * best-track fixes (a storm moving 40 km/h would otherwise jump across a 50-km circle between fixes), and
 * every position whose centre lies within radius_km of the site qualifies. This loop re-implements
 * trackPoints without its per-point ISO times and objects (a backtest visits ~10^6 positions per 1,000
 * triggers); test/trigger-backtest.test.ts checks both give the same value on a real track.
 *  - wind_speed_kt: the wind AT THE SITE from that position, by the profile live evaluation uses
 *    (site-wind.ts): the storm's own RMW and wind radii where HURDAT2 gives the RMW (2021 on), the calibrated
 *    statistical profile before (docs/triggers-backtest.md); worst = highest.
 *  - central_pressure_mb: the storm's central pressure at that position (worst = lowest); positions
 *    without a pressure (many fixes before the 1970s) do not qualify.
 * Track segments sit in a flatbush R-tree, so a trigger visits only the segments near its circle.
 */
import Flatbush from 'flatbush';
import { EARTH_RADIUS_KM } from '../../../lib/geo.js';
import { flatKm, siteWindKt } from '../../domain/site-wind.js';
import { SAMPLE_KM } from '../../domain/track.js';
import { fittedBBetween, type MeanRadiiNm } from '../../domain/record-profile.js';

export interface CatalogFix {
  hours: number; // since 1970-01-01T00Z
  lat: number;
  lng: number; // east positive
  windKt: number;
  pressureMb: number | null;
  /** HURDAT2's radius of maximum wind (nm, 2021 on) and mean wind radii (nm) at this fix; absent before. */
  rmwNm?: number;
  radiiNm?: MeanRadiiNm;
}

export interface CatalogStorm {
  id: string; // AL092022
  name: string; // IAN, or UNNAMED
  year: number;
  basin: 'atlantic' | 'pacific';
  fixes: CatalogFix[];
}

export interface StormIndex {
  storms: CatalogStorm[];
  /** Segment k joins fixes segFix[k] and segFix[k] + 1 of storm segStorm[k] (a one-fix storm: the fix itself). */
  segStorm: Uint32Array;
  segFix: Uint32Array;
  tree: Flatbush;
}

export type StormThreshold = 'wind_speed_kt' | 'central_pressure_mb';

export interface StormSite {
  lat: number;
  lng: number;
  radiusKm: number;
  thresholdType: StormThreshold;
}

/** The worst qualifying position of one storm. */
export interface StormHit {
  storm: CatalogStorm;
  hours: number;
  value: number; // kt or mb
  distanceKm: number; // centre to site at that position
}

const KM_PER_DEG = (Math.PI / 180) * EARTH_RADIUS_KM;

export function buildStormIndex(storms: CatalogStorm[]): StormIndex {
  let n = 0;
  for (const s of storms) n += Math.max(1, s.fixes.length - 1);
  const tree = new Flatbush(Math.max(1, n));
  const segStorm = new Uint32Array(n);
  const segFix = new Uint32Array(n);
  let k = 0;
  storms.forEach((s, si) => {
    if (s.fixes.length === 0) return;
    const last = Math.max(1, s.fixes.length - 1);
    for (let i = 0; i < last; i++) {
      const a = s.fixes[i];
      const b = s.fixes[Math.min(i + 1, s.fixes.length - 1)];
      tree.add(Math.min(a.lng, b.lng), Math.min(a.lat, b.lat), Math.max(a.lng, b.lng), Math.max(a.lat, b.lat));
      segStorm[k] = si;
      segFix[k] = i;
      k++;
    }
  });
  // Storms with no fixes leave slots unfilled: pad with empty boxes far away so finish() accepts the count.
  for (; k < n; k++) tree.add(1e6, 1e6, 1e6, 1e6);
  tree.finish();
  return { storms, segStorm, segFix, tree };
}

/**
 * The worst qualifying position of every storm that enters the circle, in storm order. radiusScale: the
 * baseline's calibrated Rm factor (wind triggers only). fromYear/toYear bound the storms replayed.
 */
export function replayStorms(
  index: StormIndex,
  site: StormSite,
  radiusScale: number,
  fromYear: number,
  toYear: number,
): StormHit[] {
  const dLat = site.radiusKm / KM_PER_DEG;
  const dLng = dLat / Math.max(0.05, Math.cos((site.lat * Math.PI) / 180));
  const segs = index.tree.search(site.lng - dLng, site.lat - dLat, site.lng + dLng, site.lat + dLat);
  segs.sort((x, y) => x - y); // storm order, then fix order: one pass groups each storm's segments
  const wind = site.thresholdType === 'wind_speed_kt';
  const hits: StormHit[] = [];
  let cur: StormHit | null = null;
  for (const k of segs) {
    const storm = index.storms[index.segStorm[k]];
    if (storm.year < fromYear || storm.year > toYear) continue;
    if (cur && cur.storm !== storm) {
      if (Number.isFinite(cur.value)) hits.push(cur);
      cur = null;
    }
    cur ??= { storm, hours: NaN, value: wind ? -Infinity : Infinity, distanceKm: NaN };
    const i = index.segFix[k];
    const a = storm.fixes[i];
    const b = storm.fixes[Math.min(i + 1, storm.fixes.length - 1)];
    const dtH = b.hours - a.hours;
    let bLng = b.lng;
    if (bLng - a.lng > 180) bLng -= 360;
    if (a.lng - bLng > 180) bLng += 360;
    const segKm = flatKm(a.lat, a.lng, b.lat, bLng);
    const steps = b === a ? 0 : Math.max(1, Math.ceil(segKm / SAMPLE_KM));
    for (let s = 0; s <= steps; s++) {
      const t = steps === 0 ? 0 : s / steps;
      const lat = a.lat + (b.lat - a.lat) * t;
      const lng = a.lng + (bLng - a.lng) * t;
      const d = flatKm(site.lat, site.lng, lat, lng);
      if (d > site.radiusKm) continue;
      const windKt = a.windKt + (b.windKt - a.windKt) * t;
      const pressureMb =
        a.pressureMb !== null && b.pressureMb !== null
          ? a.pressureMb + (b.pressureMb - a.pressureMb) * t
          : t === 0
            ? a.pressureMb
            : t === 1
              ? b.pressureMb
              : null;
      if (wind) {
        // The storm's own size where HURDAT2 gives it at both ends (2021 on), as live evaluation takes it.
        const rmwNm = a.rmwNm !== undefined && b.rmwNm !== undefined ? a.rmwNm + (b.rmwNm - a.rmwNm) * t : null;
        const fittedB = rmwNm === null ? null : fittedBBetween(a, b, t);
        const v = siteWindKt({ lat, lng, windKt, pressureMb, rmwNm, fittedB }, d, radiusScale);
        if (v > cur.value) Object.assign(cur, { value: v, hours: a.hours + dtH * t, distanceKm: d });
      } else if (pressureMb !== null && pressureMb < cur.value) {
        Object.assign(cur, { value: pressureMb, hours: a.hours + dtH * t, distanceKm: d });
      }
    }
  }
  if (cur && Number.isFinite(cur.value)) hits.push(cur);
  return hits;
}
