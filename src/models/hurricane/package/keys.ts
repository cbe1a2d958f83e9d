/**
 * The model package's keys lookup: an OED location's areaperil is the wind grid cell of its latitude and
 * longitude, its vulnerability the HAZUS type its codes map to (vulnerabilityIdFor, remembered per combination of codes), one key per coverage
 * type (1 buildings, 2 other, 3 contents, 4 BI) for peril WTC. A location the model cannot place is a
 * keys error with the reason, never a silent zero: no coordinates, outside the grid (24–48°N, 106–66°W),
 * or a cell no event of the catalog reaches with a gust of 40 mph or more (inland, on water, or too far
 * north or west for this catalog's storms).
 *
 * Storm surge (peril WSS) has its own keys, coverages 1-3: the surge areaperil of the same cell and the
 * vulnerability of the location's HAZUS flood class and first-floor elevation band (surge-bins.ts). A
 * location gets no surge key, and a keys error saying why, where surge is not modelled: no OED
 * GroundElevation (no elevation model is in the data, and a depth that took the ground to be at sea level
 * would be invented), or a cell no event of the catalog brings surge to (inland beyond the surge's reach).
 */
import fs from 'node:fs';
import path from 'node:path';
import { areaperilId, cellOf, GRID_COLS, GRID_DEG, GRID_ROWS, GRID_SOUTH, GRID_WEST } from '../domain/footprint/grid.js';
import { FIRST_EDGE_MPH } from '../domain/intensity-bins.js';
import { vulnerabilityMemo, type OedRow } from '../domain/vulnerability/building-types.js';
import { firstFloorElevationM } from '../domain/surge/surge-depth.js';
import { elevationBand, surgeAreaperil } from '../domain/surge/surge-bins.js';
import { MAX_INLAND_KM, MIN_HEIGHT_M } from '../domain/surge/surge-heights.js';
import { SURGE_PERIL } from '../domain/surge/surge-site.js';
import { floodClassFor, SURGE_COVERAGES, surgeVulnerabilityId } from '../domain/surge/flood-classes.js';
import { perilsCovered } from '../../../oasis-files/domain/peril-groups.js';
import { CELL_MAX_BIN_FILE, CELL_MAX_SURGE_BIN_FILE } from './package-files.js';

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
  /** Oasis keys statuses: notmodelled (the model cannot say, e.g. no elevation), notatrisk (modelled, never reached). */
  status: 'nomatch' | 'fail' | 'notmodelled' | 'notatrisk';
  message: string;
}

/** Which cells the package's catalog reaches: per cell the highest wind and surge intensity bin, 0 where none. */
export interface PackageReach {
  wind: Uint8Array;
  /** null for a package built before surge joined it. */
  surge: Uint8Array | null;
}

/** The package's per-cell highest intensity bins; an error naming the fix when the directory is not a package. */
export function readPackageReach(modelDir: string): PackageReach {
  const file = path.join(modelDir, CELL_MAX_BIN_FILE);
  if (!fs.existsSync(file)) throw new Error(`${modelDir} holds no ${CELL_MAX_BIN_FILE}: it is not a hurricane model package; build one with \`catintel model build hurricane --out DIR\``);
  const surgeFile = path.join(modelDir, CELL_MAX_SURGE_BIN_FILE);
  return { wind: new Uint8Array(fs.readFileSync(file)), surge: fs.existsSync(surgeFile) ? new Uint8Array(fs.readFileSync(surgeFile)) : null };
}

/**
 * Whether the surge keys can place any location of an OED location file with these columns: only with a
 * GroundElevation (firstFloorElevationM). Without one a book's surge footprint rows would reach no item.
 */
export function surgeKeyable(columns: readonly string[]): boolean {
  return columns.includes('GroundElevation');
}

export function hurricaneKeys(locations: { locId: number; row: OedRow }[], reach: PackageReach): { keys: KeyRow[]; errors: KeyError[] } {
  const keys: KeyRow[] = [];
  const errors: KeyError[] = [];
  const vulnerabilityOf = vulnerabilityMemo();
  // A book names a handful of LocPerilsCovered lists: each is read once.
  const coveredBy = new Map<string, ReadonlySet<string>>();
  const both: ReadonlySet<string> = new Set([KEYS_PERIL, SURGE_PERIL]);
  for (const { locId, row } of locations) {
    // As Oasis lookups do, a location is keyed only for the perils its LocPerilsCovered names (codes or groups); no column: both.
    const coverText = String(row.LocPerilsCovered ?? '').trim();
    let covered = coverText ? coveredBy.get(coverText) : both;
    if (covered === undefined) coveredBy.set(coverText, (covered = perilsCovered(coverText)));
    if (!covered.has(KEYS_PERIL) && !covered.has(SURGE_PERIL)) {
      for (const p of [KEYS_PERIL, SURGE_PERIL]) errors.push({ locId, perilId: p, coverageTypeId: 1, status: 'notmodelled', message: `LocPerilsCovered ${coverText} covers neither ${KEYS_PERIL} nor ${SURGE_PERIL}, the perils of the hurricane model` });
      continue;
    }
    const lat = Number(row.Latitude ?? row.latitude);
    const lng = Number(row.Longitude ?? row.longitude);
    const failSurge = (status: KeyError['status'], message: string) => {
      if (!covered.has(SURGE_PERIL)) return;
      for (const c of SURGE_COVERAGES) errors.push({ locId, perilId: SURGE_PERIL, coverageTypeId: c, status, message });
    };
    const fail = (status: KeyError['status'], message: string) => {
      if (covered.has(KEYS_PERIL)) for (const c of KEYS_COVERAGES) errors.push({ locId, perilId: KEYS_PERIL, coverageTypeId: c, status, message });
      failSurge(status, message);
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
    const k = cell.row * GRID_COLS + cell.col;
    if (!reach.wind[k]) {
      fail('nomatch', `(${lat}, ${lng}) is outside the hurricane footprints: no event of this catalog puts a gust of ${FIRST_EDGE_MPH} mph or more on its cell (inland, on water or beyond the storms' reach)`);
      continue;
    }
    if (covered.has(KEYS_PERIL)) {
      const vulnerabilityIdFor = vulnerabilityOf(row);
      for (const c of KEYS_COVERAGES) {
        const v = vulnerabilityIdFor(c);
        keys.push({ locId, perilId: KEYS_PERIL, coverageTypeId: c, areaPerilId: areaperilId(cell.row, cell.col), vulnerabilityId: v.id, message: v.message });
      }
    }
    if (!covered.has(SURGE_PERIL)) continue;
    if (!reach.surge) {
      failSurge('nomatch', 'storm surge not modelled: this model package was built without surge; rebuild it with `catintel model build hurricane`');
      continue;
    }
    if (!reach.surge[k]) {
      failSurge('notatrisk', `no storm surge at (${lat}, ${lng}) in this catalog: no event of this catalog brings a surge of ${MIN_HEIGHT_M} m or more to its cell (more than ${MAX_INLAND_KM} km from the sea coast, or beyond the storms' reach)`);
      continue;
    }
    const floor = firstFloorElevationM(row as Parameters<typeof firstFloorElevationM>[0]);
    if ('reason' in floor) {
      failSurge('notmodelled', floor.reason);
      continue;
    }
    const flood = floodClassFor(row);
    const band = elevationBand(floor.elevationM);
    const where = `first floor ${floor.elevationM.toFixed(2)} m above the datum (ground ${floor.groundM.toFixed(2)} m + ${floor.firstFloorM.toFixed(2)} m${floor.firstFloorGiven ? '' : ' assumed: FirstFloorHeight not given'})`;
    for (const c of SURGE_COVERAGES) {
      keys.push({ locId, perilId: SURGE_PERIL, coverageTypeId: c, areaPerilId: surgeAreaperil(areaperilId(cell.row, cell.col)), vulnerabilityId: surgeVulnerabilityId(flood.floodClass.index, band, c), message: `${flood.message}; ${where}` });
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
