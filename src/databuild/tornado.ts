/**
 * Tornado hazard per cell from the NOAA SPC tornado database (1950–2022): the annual probability that a
 * damage path crosses a point, λ = Σ(path area)/(area · years) (docs/methods.md#score-mappings), with each tornado's path
 * area placed at its touchdown point and smoothed (kernel.ts, σ = 80 km [judgement; SPC-style tornado
 * climatologies smooth over ~100 km]). The shared file keeps only start point and rating, not length and
 * width, so path areas are class means by (E)F rating [judgement, docs/scoring.md]; when a full SPC file
 * with `len` (mi) and `wid` (yd) columns is given, each record's own len × wid is used instead.
 * Damaging = (E)F1+, severe = (E)F3+; whole-path areas make both upper bounds.
 */
import { parse } from 'csv-parse/sync';
import type { CellQuery } from '../reference-data/cell-query.js';
import { DensityAccumulator, NearbyCounter } from './kernel.js';

export const TORNADO_FIRST_YEAR = 1950;
export const TORNADO_LAST_YEAR = 2022;
const SIGMA_KM = 80;
const NEARBY_KM = 50;
const KM_PER_MI = 1.609344;
const KM_PER_YD = 0.0009144;

/** Mean damage-path area (km²) by rating 0..5 [judgement: ≈ class mean length × mean width]. */
export const PATH_AREA_KM2 = [0.05, 0.4, 1.8, 7.0, 20.0, 39.0] as const;

export interface Tornado {
  year: number;
  rating: number; // 0–5, -9 unknown
  lat: number;
  lng: number;
  areaKm2: number;
}

export function parseSpcTornadoes(text: string): Tornado[] {
  const rows = parse(text, { columns: true, skip_empty_lines: true, trim: true }) as Record<string, string>[];
  const seen = new Set<string>();
  const out: Tornado[] = [];
  for (const r of rows) {
    const key = `${r.yr}|${r.om}|${r.slat}|${r.slon}`;
    if (seen.has(key)) continue; // the repo subset repeats a handful of records
    seen.add(key);
    const rating = Number(r.rating ?? r.mag);
    const lat = Number(r.slat);
    const lng = Number(r.slon);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || lat === 0 || rating < 0 || rating > 5) continue;
    const len = Number(r.len);
    const wid = Number(r.wid);
    const own = len > 0 && wid > 0 ? len * KM_PER_MI * wid * KM_PER_YD : NaN;
    out.push({ year: Number(r.yr), rating, lat, lng, areaKm2: Number.isFinite(own) ? own : PATH_AREA_KM2[rating] });
  }
  return out.sort(
    (a, b) => a.year - b.year || a.lat - b.lat || a.lng - b.lng || a.rating - b.rating || a.areaKm2 - b.areaKm2,
  );
}

export interface TornadoResult {
  lambdaDamaging: Float64Array;
  lambdaSevere: Float64Array;
  events: Float64Array; // (E)F1+ touchdowns within 50 km
  used: number;
}

export function tornadoHazard(tornadoes: Tornado[], query: CellQuery, cellLat: Float64Array): TornadoResult {
  const years = TORNADO_LAST_YEAR - TORNADO_FIRST_YEAR + 1;
  const dmg = new DensityAccumulator(query, cellLat);
  const sev = new DensityAccumulator(query, cellLat);
  const near = new NearbyCounter(query, cellLat.length, NEARBY_KM);
  let used = 0;
  for (const t of tornadoes) {
    if (t.rating < 1 || t.year < TORNADO_FIRST_YEAR || t.year > TORNADO_LAST_YEAR) continue;
    if (!dmg.add(t.lat, t.lng, t.areaKm2, SIGMA_KM)) continue;
    used++;
    near.add(t.lat, t.lng);
    if (t.rating >= 3) sev.add(t.lat, t.lng, t.areaKm2, SIGMA_KM);
  }
  return {
    lambdaDamaging: dmg.density.map((d) => d / years),
    lambdaSevere: sev.density.map((d) => d / years),
    events: near.counts,
    used,
  };
}
