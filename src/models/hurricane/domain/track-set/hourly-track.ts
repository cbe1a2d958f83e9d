/**
 * A HURDAT2 storm resampled to one fix an hour, the time step the random walk and the landfall detector
 * run at (CLIMADA's tc_tracks_synth also perturbs hourly tracks). Six-hourly fixes skip over the Keys,
 * the Outer Banks or Long Island in one step; hourly ones do not. Values are interpolated linearly between
 * fixes (longitude without wrapping: Atlantic tracks never cross 180°).
 */
import type { Storm } from '../../../../reference-data/hurdat2.js';
import { KM_PER_NM, trackGreatCircleKm } from '../../../../lib/geo.js';
import { pressureFromWindKt } from './intensity.js';

export interface HourlyTrack {
  parentId: string;
  /** Epoch hours (since 1970-01-01T00Z) of the first hourly fix. */
  startHour: number;
  lat: Float64Array;
  lng: Float64Array;
  windKt: Float64Array;
  pressureMb: Float64Array;
  /** The record's radius of maximum wind (km) where HURDAT2 gives one (2021+), NaN elsewhere. */
  rmwKm: Float64Array;
  /** Distance run since the first fix (km, great circle), the along-track stage. */
  distKm: Float64Array;
}

export function hourlyTrack(storm: Storm): HourlyTrack | null {
  const fixes = storm.fixes;
  if (fixes.length < 2) return null;
  const start = Math.ceil(fixes[0].hours);
  const end = Math.floor(fixes[fixes.length - 1].hours);
  const n = end - start + 1;
  if (n < 2) return null;
  const out: HourlyTrack = {
    parentId: storm.id,
    startHour: start,
    lat: new Float64Array(n),
    lng: new Float64Array(n),
    windKt: new Float64Array(n),
    pressureMb: new Float64Array(n),
    rmwKm: new Float64Array(n),
    distKm: new Float64Array(n),
  };
  // Pressure where the record has none (most fixes before the 1970s): from the wind, so the two stay consistent.
  const pressure = fixes.map((f) => f.pressureMb ?? pressureFromWindKt(f.windKt));
  let k = 0;
  for (let i = 0; i < n; i++) {
    const t = start + i;
    while (k < fixes.length - 2 && fixes[k + 1].hours <= t) k++;
    const a = fixes[k];
    const b = fixes[k + 1];
    const span = b.hours - a.hours;
    const w = span > 0 ? Math.min(1, Math.max(0, (t - a.hours) / span)) : 0;
    const mix = (x: number, y: number) => x + (y - x) * w;
    out.lat[i] = mix(a.lat, b.lat);
    out.lng[i] = mix(a.lng, b.lng);
    out.windKt[i] = mix(a.windKt, b.windKt);
    out.pressureMb[i] = mix(pressure[k], pressure[k + 1]);
    if (i > 0) out.distKm[i] = out.distKm[i - 1] + trackGreatCircleKm(out.lat[i - 1], out.lng[i - 1], out.lat[i], out.lng[i]);
    out.rmwKm[i] = a.rmwNm !== null && b.rmwNm !== null ? mix(a.rmwNm, b.rmwNm) * KM_PER_NM : NaN;
  }
  return out;
}
