/**
 * The hazard curve at one site from a whole catalog, fast enough to answer a request: the same peak gust
 * per track as hazardCurve() (the same 15-minute storm steps and wind field), but only the tracks whose
 * fixes come within the wind field's reach of the site are stepped, and only over the part of the track
 * within that reach. sitePeakGustMph ignores steps more than 8° of latitude or 10° of longitude away, so
 * stepping a track only between its first and last fix inside that box (and one fix either side, so the
 * interpolation up to the box edge is unchanged) gives the same peak.
 */
import { FIRST_EDGE_MPH } from './intensity-bins.js';
import type { HazardCurve, Site } from './hazard-curve.js';
import type { Track } from './track.js';
import { sitePeakGustMph } from './wind-field/point-wind.js';
import { stormSteps } from './wind-field/storm-steps.js';

const REACH_LAT_DEG = 8;
const REACH_LNG_DEG = 10;

/** A catalog indexed for site queries: each track's bounding box of fixes. */
export class SiteHazardIndex {
  private readonly boxes: Float64Array;

  constructor(
    readonly tracks: Track[],
    readonly ratePerTrack: number,
  ) {
    this.boxes = new Float64Array(tracks.length * 4);
    tracks.forEach((t, i) => {
      let s = Infinity;
      let n = -Infinity;
      let w = Infinity;
      let e = -Infinity;
      for (const f of t.fixes) {
        if (f.lat < s) s = f.lat;
        if (f.lat > n) n = f.lat;
        if (f.lng < w) w = f.lng;
        if (f.lng > e) e = f.lng;
      }
      this.boxes.set([s, n, w, e], i * 4);
    });
  }

  curve(site: Site): HazardCurve {
    const peaks: HazardCurve['peaks'] = [];
    const b = this.boxes;
    for (let i = 0; i < this.tracks.length; i++) {
      const o = i * 4;
      if (site.lat < b[o] - REACH_LAT_DEG || site.lat > b[o + 1] + REACH_LAT_DEG || site.lng < b[o + 2] - REACH_LNG_DEG || site.lng > b[o + 3] + REACH_LNG_DEG) continue;
      const t = this.tracks[i];
      const within = (k: number) => Math.abs(t.fixes[k].lat - site.lat) <= REACH_LAT_DEG && Math.abs(t.fixes[k].lng - site.lng) <= REACH_LNG_DEG;
      let first = -1;
      let last = -1;
      for (let k = 0; k < t.fixes.length; k++) {
        if (!within(k)) continue;
        if (first < 0) first = k;
        last = k;
      }
      if (first < 0) continue;
      const fixes = t.fixes.slice(Math.max(0, first - 1), Math.min(t.fixes.length, last + 2));
      const g = sitePeakGustMph(stormSteps({ ...t, fixes }), site.lat, site.lng, site.inlandKm);
      if (g >= FIRST_EDGE_MPH) peaks.push({ gustMph: g, rate: this.ratePerTrack, parentId: t.parentId });
    }
    peaks.sort((x, y) => y.gustMph - x.gustMph);
    return { peaks, spanYears: 1 / this.ratePerTrack, rateAboveEdge: peaks.reduce((s, p) => s + p.rate, 0) };
  }
}
