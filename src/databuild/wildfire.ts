/**
 * Wildfire hazard per cell from ICS-209 incident reports 1999–2024 (the harmonised parquet of
 * lpiep/ics209_minimal, read with DuckDB): annual burn probability = burned area placed at the point of
 * origin and smoothed (kernel.ts) with σ = max(20 km, √(A/π)) [judgement: a fire's own radius, and not
 * less than the point-of-origin to perimeter scale], divided by 26 years. Damaging = any reported fire;
 * severe = fires that destroyed at least one structure.
 * The historical 209 archive is all-hazard, so we drop incidents that are not wildfires (hurricane and
 * flood responses, the 2003 shuttle recovery, animal-disease "END" responses...) by name and by size
 * (> 6,000 km², larger than any US wildfire on record here), and collapse the duplicate reports one fire
 * gets for zones and complexes (same state, ignition date and area to 0.1 km²). Complexes that also
 * report their member fires are still counted twice: the burn probabilities are upper bounds there.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import type { CellQuery } from './cell-query.js';
import { DensityAccumulator, NearbyCounter } from './kernel.js';

export const WILDFIRE_FIRST_YEAR = 1999;
export const WILDFIRE_LAST_YEAR = 2024;
const MIN_SIGMA_KM = 20;
const MAX_FIRE_KM2 = 6000;
const NEARBY_KM = 50;
const NOT_WILDFIRE =
  '(?i)(hurricane|tropical|katrina|shuttle|columbia (response|disaster)|\\bflood|flooding|ice storm|winter storm|windstorm|snowstorm|blizzard|earthquake|tornado|\\beoc\\b|incident support|recovery|rescue|msfc|covid|pandemic|avian|^end[ -])';

export interface Fire {
  lat: number;
  lng: number;
  areaKm2: number;
  destroyedStructures: boolean;
}

export async function readIcs209Fires(parquetPath: string): Promise<Fire[]> {
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    // Every ORDER BY is total (ties broken down to the values we use), so the float sums downstream
    // happen in the same order on every run: DuckDB scans in parallel and returns ties in any order.
    const reader = await con.runAndReadAll(
      `SELECT ics_wildfire_poo_lat AS lat, ics_wildfire_poo_lon AS lng, ics_wildfire_area AS area,
              coalesce(ics_wildfire_struct_destroyed, 0) >= 1 AS destroyed
       FROM (
         SELECT *, row_number() OVER (
           PARTITION BY ics_state, ics_wildfire_ignition_date, round(ics_wildfire_area, 1)
           ORDER BY coalesce(ics_wildfire_struct_destroyed, 0) DESC, ics_id, ics_name, ics_wildfire_poo_lat, ics_wildfire_poo_lon) AS k
         FROM read_parquet($path)
         WHERE ics_wildfire_area > 0 AND ics_wildfire_area <= $maxArea
           AND ics_wildfire_poo_lat IS NOT NULL AND ics_wildfire_poo_lon IS NOT NULL
           AND year(ics_wildfire_ignition_date) BETWEEN $y0 AND $y1
           AND NOT regexp_matches(coalesce(ics_name, ''), $pattern)
       )
       WHERE k = 1
       ORDER BY ics_id, lat, lng, area, destroyed`,
      { path: parquetPath, maxArea: MAX_FIRE_KM2, y0: WILDFIRE_FIRST_YEAR, y1: WILDFIRE_LAST_YEAR, pattern: NOT_WILDFIRE },
    );
    return reader.getRowObjectsJS().map((r) => ({
      lat: Number(r.lat),
      lng: Number(r.lng),
      areaKm2: Number(r.area),
      destroyedStructures: r.destroyed === true,
    }));
  } finally {
    con.closeSync();
    db.closeSync();
  }
}

export interface WildfireResult {
  lambdaDamaging: Float64Array;
  lambdaSevere: Float64Array;
  events: Float64Array;
  used: number;
}

export function wildfireHazard(fires: Fire[], query: CellQuery, cellLat: Float64Array): WildfireResult {
  const years = WILDFIRE_LAST_YEAR - WILDFIRE_FIRST_YEAR + 1;
  const dmg = new DensityAccumulator(query, cellLat);
  const sev = new DensityAccumulator(query, cellLat);
  const near = new NearbyCounter(query, cellLat.length, NEARBY_KM);
  let used = 0;
  for (const f of fires) {
    const sigmaKm = Math.max(MIN_SIGMA_KM, Math.sqrt(f.areaKm2 / Math.PI));
    if (!dmg.add(f.lat, f.lng, f.areaKm2, sigmaKm)) continue;
    used++;
    near.add(f.lat, f.lng);
    if (f.destroyedStructures) sev.add(f.lat, f.lng, f.areaKm2, sigmaKm);
  }
  return {
    lambdaDamaging: dmg.density.map((d) => d / years),
    lambdaSevere: sev.density.map((d) => d / years),
    events: near.counts,
    used,
  };
}
