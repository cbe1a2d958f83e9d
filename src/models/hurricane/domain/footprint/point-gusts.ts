/**
 * A storm's peak gust at a fixed set of points (the design-wind check's coastal cities) rather than at every grid cell:
 * the same 15-minute steps, the same reach cut-off as the grid footprint (peak-gust.ts) and the same
 * wind at a point as the site hazard curve (point-wind.ts), so a point's gust equals sitePeakGustMph
 * wherever that reaches the threshold. A 10,000-year catalog over a few points takes a minute where the
 * full grid footprint takes an hour: this is what lets the design-wind check run on the whole catalog.
 * Losses never come from these gusts: they come from the package footprint through the kernel.
 */
import { FIRST_EDGE_MPH } from '../intensity-bins.js';
import type { Site } from '../hazard-curve.js';
import type { Track } from '../track.js';
import { stepGustMph } from '../wind-field/point-wind.js';
import { stormSteps } from '../wind-field/storm-steps.js';
import { reachKm } from './peak-gust.js';

const KM_PER_DEG = 111.195;
/** Points are bucketed by whole degrees, so a step visits only the buckets its reach overlaps. */
const BUCKET_DEG = 1;

/** Points indexed by 1° bucket. */
export class PointSet {
  private readonly buckets = new Map<number, number[]>();
  readonly south: number;
  readonly north: number;
  readonly west: number;
  readonly east: number;

  constructor(readonly points: readonly Site[]) {
    let s = Infinity;
    let n = -Infinity;
    let w = Infinity;
    let e = -Infinity;
    points.forEach((p, i) => {
      const key = bucketKey(Math.floor(p.lat / BUCKET_DEG), Math.floor(p.lng / BUCKET_DEG));
      let list = this.buckets.get(key);
      if (!list) this.buckets.set(key, (list = []));
      list.push(i);
      s = Math.min(s, p.lat);
      n = Math.max(n, p.lat);
      w = Math.min(w, p.lng);
      e = Math.max(e, p.lng);
    });
    this.south = s;
    this.north = n;
    this.west = w;
    this.east = e;
  }

  bucket(row: number, col: number): number[] | undefined {
    return this.buckets.get(bucketKey(row, col));
  }
}

function bucketKey(row: number, col: number): number {
  return (row + 1000) * 10000 + (col + 1000);
}

/** The points a storm brings to thresholdMph or more (indices ascending) and their peak gusts (mph). */
export interface PointGusts {
  points: Uint32Array;
  gustMph: Float32Array;
}

export function pointPeakGusts(track: Track, set: PointSet, thresholdMph = FIRST_EDGE_MPH): PointGusts {
  const peak = new Map<number, number>();
  for (const step of stormSteps(track)) {
    // A cheap bound before the reach: no step more than 8° from every point can bring it a gust (point-wind.ts).
    if (step.lat < set.south - 8 || step.lat > set.north + 8 || step.lng < set.west - 10 || step.lng > set.east + 10) continue;
    const reach = reachKm(step, thresholdMph);
    if (reach === 0) continue;
    const dLat = reach / KM_PER_DEG;
    const dLng = reach / (Math.cos((Math.min(60, Math.abs(step.lat) + dLat) * Math.PI) / 180) * KM_PER_DEG);
    const r0 = Math.floor((step.lat - dLat) / BUCKET_DEG);
    const r1 = Math.floor((step.lat + dLat) / BUCKET_DEG);
    const c0 = Math.floor((step.lng - dLng) / BUCKET_DEG);
    const c1 = Math.floor((step.lng + dLng) / BUCKET_DEG);
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const list = set.bucket(r, c);
        if (!list) continue;
        for (const i of list) {
          const p = set.points[i];
          // The site curve's own cut-off (point-wind.ts), kept so the two agree exactly.
          if (Math.abs(p.lat - step.lat) > 8 || Math.abs(p.lng - step.lng) > 10) continue;
          const dx = (p.lng - step.lng) * Math.cos((p.lat * Math.PI) / 180) * KM_PER_DEG;
          const dy = (p.lat - step.lat) * KM_PER_DEG;
          if (dx * dx + dy * dy > reach * reach) continue;
          const g = stepGustMph(step, p.lat, p.lng, p.inlandKm);
          if (g > (peak.get(i) ?? 0)) peak.set(i, g);
        }
      }
    }
  }
  const hit = [...peak.entries()].filter(([, g]) => g >= thresholdMph).sort((a, b) => a[0] - b[0]);
  return { points: Uint32Array.from(hit.map(([i]) => i)), gustMph: Float32Array.from(hit.map(([, g]) => g)) };
}
