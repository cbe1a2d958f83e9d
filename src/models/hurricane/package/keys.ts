/**
 * The model package's keys lookup: an OED location's areaperil is the wind grid cell of its latitude and
 * longitude, its vulnerability the HAZUS type its codes map to (vulnerabilityIdFor), one key per coverage
 * type (1 buildings, 2 other, 3 contents, 4 BI) for peril WTC. A location the model cannot place is a
 * keys error with the reason, never a silent zero: no coordinates, outside the grid (24–48°N, 106–66°W),
 * or a cell no event of the catalog reaches with a gust of 40 mph or more (inland, on water, or too far
 * north or west for this catalog's storms).
 */
import fs from 'node:fs';
import path from 'node:path';
import { areaperilId, cellOf, GRID_COLS, GRID_DEG, GRID_ROWS, GRID_SOUTH, GRID_WEST } from '../domain/footprint/grid.js';
import { FIRST_EDGE_MPH } from '../domain/intensity-bins.js';
import { vulnerabilityIdFor, type OedRow } from '../domain/vulnerability/building-types.js';
import { CELL_MAX_BIN_FILE } from './package-files.js';

export const KEYS_PERIL = 'WTC';
export const KEYS_COVERAGES = [1, 2, 3, 4];

export interface KeyRow {
  locId: number;
  perilId: string;
  coverageTypeId: number;
  areaPerilId: number;
  vulnerabilityId: number;
  message: string;
}

export interface KeyError {
  locId: number;
  perilId: string;
  coverageTypeId: number;
  status: 'nomatch' | 'fail';
  message: string;
}

/** The package's per-cell highest intensity bin; an error naming the fix when the directory is not a package. */
export function readCellMaxBin(modelDir: string): Uint8Array {
  const file = path.join(modelDir, CELL_MAX_BIN_FILE);
  if (!fs.existsSync(file)) throw new Error(`${modelDir} holds no ${CELL_MAX_BIN_FILE}: it is not a hurricane model package; build one with \`catintel model build hurricane --out DIR\``);
  return new Uint8Array(fs.readFileSync(file));
}

export function hurricaneKeys(locations: { locId: number; row: OedRow }[], cellMaxBin: Uint8Array): { keys: KeyRow[]; errors: KeyError[] } {
  const keys: KeyRow[] = [];
  const errors: KeyError[] = [];
  for (const { locId, row } of locations) {
    const lat = Number(row.Latitude ?? row.latitude);
    const lng = Number(row.Longitude ?? row.longitude);
    const fail = (status: KeyError['status'], message: string) => {
      for (const c of KEYS_COVERAGES) errors.push({ locId, perilId: KEYS_PERIL, coverageTypeId: c, status, message });
    };
    if (row.Latitude === '' || row.Longitude === '' || !Number.isFinite(lat) || !Number.isFinite(lng)) {
      fail('fail', 'no Latitude/Longitude: the hurricane model places a location by its coordinates');
      continue;
    }
    const cell = cellOf(lat, lng);
    if (!cell) {
      fail('nomatch', `(${lat}, ${lng}) is off the hurricane grid (${GRID_SOUTH}–${GRID_SOUTH + GRID_ROWS * GRID_DEG}°N, ${-GRID_WEST}–${-(GRID_WEST + GRID_COLS * GRID_DEG)}°W)`);
      continue;
    }
    if (!cellMaxBin[cell.row * GRID_COLS + cell.col]) {
      fail('nomatch', `(${lat}, ${lng}) is outside the hurricane footprints: no event of this catalog puts a gust of ${FIRST_EDGE_MPH} mph or more on its cell (inland, on water or beyond the storms' reach)`);
      continue;
    }
    for (const c of KEYS_COVERAGES) {
      const v = vulnerabilityIdFor(row, c);
      keys.push({ locId, perilId: KEYS_PERIL, coverageTypeId: c, areaPerilId: areaperilId(cell.row, cell.col), vulnerabilityId: v.id, message: v.message });
    }
  }
  return { keys, errors };
}

export function keysCsv(keys: KeyRow[]): string {
  return ['LocID,PerilID,CoverageTypeID,AreaPerilID,VulnerabilityID', ...keys.map((k) => `${k.locId},${k.perilId},${k.coverageTypeId},${k.areaPerilId},${k.vulnerabilityId}`)].join('\n') + '\n';
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;
export function keysErrorsCsv(errors: KeyError[]): string {
  return ['LocID,PerilID,CoverageTypeID,Status,Message', ...errors.map((e) => `${e.locId},${e.perilId},${e.coverageTypeId},${e.status},${quote(e.message)}`)].join('\n') + '\n';
}
