/**
 * Wildfire hazard per cell from ICS-209 incident reports 1999–2024 (the harmonised parquet of
 * lpiep/ics209_minimal, read with DuckDB): annual burn probability = burned area placed at the point of
 * origin and smoothed (kernel.ts) with σ = max(20 km, √(A/π)) [judgement: a fire's own radius, and not
 * less than the point-of-origin to perimeter scale], divided by 26 years. Damaging = any reported fire;
 * severe = fires that destroyed at least one structure.
 * The reports are cleaned first (wildfire-clean.ts: non-fire incidents, points of origin outside their
 * state, several reports of one incident), and the smoothing stops at urban cores: in a county denser on
 * average than URBAN_DENSITY_PER_KM2, a cell whose centre lies within sqrt(P / (π·URBAN_DENSITY_PER_KM2)) of
 * the county's 2020 centre of population (P its population:
 * the county's people on a disk at the urban density, a monocentric-city approximation [judgement], with
 * county population the finest at hand) takes no kernel mass from a fire that started in another cell, so
 * burned wildland (the Everglades) does not spread onto a city (downtown Miami), while fires that start in
 * the cell still count there. The mass withheld goes to the fire's other cells.
 */
import { duckdb } from '../store/duckdb.js';
import type { CellQuery } from '../reference-data/cell-query.js';
import { DensityAccumulator, NearbyCounter } from './kernel.js';
import type { CleanFire, Ics209Report } from './wildfire-clean.js';

export const WILDFIRE_FIRST_YEAR = 1999;
export const WILDFIRE_LAST_YEAR = 2024;
const MIN_SIGMA_KM = 20;
const MAX_FIRE_KM2 = 6000;
const NEARBY_KM = 50;
/**
 * The US Census urban-area density criterion, 1,000 people per square mile (386 per km²; Census Bureau,
 * urban area criteria for the 2010 Census, Federal Register 76:53030): a county denser than this on average
 * is mostly built up [judgement to apply it at county level, the finest population data at hand].
 */
export const URBAN_DENSITY_PER_KM2 = 386;

/** Every ICS-209 report with a usable area, point of origin and ignition year in the record window. */
export async function readIcs209Reports(parquetPath: string): Promise<Ics209Report[]> {
  const db = await duckdb().DuckDBInstance.create(':memory:');
  const con = await db.connect();
  try {
    // Every ORDER BY is total (ties broken down to the values we use), so the float sums downstream
    // happen in the same order on every run: DuckDB scans in parallel and returns ties in any order.
    const reader = await con.runAndReadAll(
      `SELECT ics_id AS id, coalesce(ics_name, '') AS name, ics_state AS state, ics_county AS county,
              strftime(ics_wildfire_ignition_date, '%Y-%m-%d') AS date, ics_wildfire_area AS area,
              ics_wildfire_poo_lat AS lat, ics_wildfire_poo_lon AS lng, ics_wildfire_struct_destroyed AS destroyed
       FROM read_parquet($path)
       WHERE ics_wildfire_area > 0 AND ics_wildfire_area <= $maxArea
         AND ics_wildfire_poo_lat IS NOT NULL AND ics_wildfire_poo_lon IS NOT NULL
         AND year(ics_wildfire_ignition_date) BETWEEN $y0 AND $y1
       ORDER BY ics_id, lat, lng, area, destroyed NULLS FIRST, name, state NULLS FIRST, county NULLS FIRST`,
      { path: parquetPath, maxArea: MAX_FIRE_KM2, y0: WILDFIRE_FIRST_YEAR, y1: WILDFIRE_LAST_YEAR },
    );
    return reader.getRowObjectsJS().map((r) => ({
      id: String(r.id),
      name: String(r.name),
      state: r.state === null ? null : String(r.state),
      county: r.county === null ? null : String(r.county),
      date: String(r.date),
      areaKm2: Number(r.area),
      lat: Number(r.lat),
      lng: Number(r.lng),
      structuresDestroyed: r.destroyed === null ? null : Number(r.destroyed),
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

/**
 * `urbanFactor[cell]`: 0 on urban-core cells, 1 elsewhere; `originCell(lat, lng)`: the covered cell holding a
 * point of origin (-1 if none).
 */
export function wildfireHazard(
  fires: CleanFire[],
  query: CellQuery,
  cellLat: Float64Array,
  urbanFactor: Float64Array,
  originCell: (lat: number, lng: number) => number,
): WildfireResult {
  const years = WILDFIRE_LAST_YEAR - WILDFIRE_FIRST_YEAR + 1;
  const dmg = new DensityAccumulator(query, cellLat);
  const sev = new DensityAccumulator(query, cellLat);
  const near = new NearbyCounter(query, cellLat.length, NEARBY_KM);
  let used = 0;
  for (const f of fires) {
    const sigmaKm = Math.max(MIN_SIGMA_KM, Math.sqrt(f.areaKm2 / Math.PI));
    const cap = { factor: urbanFactor, origin: originCell(f.lat, f.lng) };
    if (!dmg.add(f.lat, f.lng, f.areaKm2, sigmaKm, cap)) continue;
    used++;
    near.add(f.lat, f.lng);
    if (f.structuresDestroyed >= 1) sev.add(f.lat, f.lng, f.areaKm2, sigmaKm, cap);
  }
  return {
    lambdaDamaging: dmg.density.map((d) => d / years),
    lambdaSevere: sev.density.map((d) => d / years),
    events: near.counts,
    used,
  };
}
