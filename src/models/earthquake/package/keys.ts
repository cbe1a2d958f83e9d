/**
 * The earthquake package's keys lookup: an OED location's areaperil is the 0.1° grid cell of its latitude
 * and longitude; its vulnerability the HAZUS type, occupancy and code level its codes map to
 * (vulnerabilityIdFor), the code level read with the cell's UBC seismic zone from the package, and its own
 * site's Vs30 where its OED soil fields give one (site-vs30.ts); one key per
 * coverage type (1 buildings, 2 other, 3 contents, 4 BI) for peril QEQ. A location the model cannot place
 * is a keys error with the reason, never a silent zero: no coordinates, or outside the contiguous US box
 * the sources and the grid cover. Inside it every cell is placed, also where the catalog has no damaging
 * shaking (its loss is zero, which is the model's answer there).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { KeyError, KeyRow } from '../../hurricane/package/keys.js';
import { vulnerabilityIdFor, type OedRow } from '../domain/vulnerability/building-types.js';
import { SEISMIC_ZONES, type SeismicZone } from '../domain/vulnerability/design-level.js';
import { siteVs30Of } from '../domain/vulnerability/site-vs30.js';
import { CONUS_BOX } from '../site-hazard-curve.js';
import { areaperilId, cellOf, GRID_CELLS, GRID_COLS } from './grid.js';
import { CELL_ZONE_FILE, KEYS_PERIL } from './package-files.js';

export const KEYS_COVERAGES = [1, 2, 3, 4];
/** OED location fields the lookup reads. */
export const KEYS_FIELDS = ['PortNumber', 'AccNumber', 'LocNumber', 'Latitude', 'Longitude', 'OccupancyCode', 'ConstructionCode', 'NumberOfStoreys', 'YearBuilt', 'SoilType', 'SoilValue'] as const;

/** The package's per-cell seismic zones; an error naming the fix when the directory is not an earthquake package. */
export function readCellZones(modelDir: string): Uint8Array {
  const file = path.join(modelDir, CELL_ZONE_FILE);
  if (!fs.existsSync(file)) throw new Error(`${modelDir} holds no ${CELL_ZONE_FILE}: it is not an earthquake model package; build one with \`catintel model build earthquake --out DIR\``);
  const zones = new Uint8Array(fs.readFileSync(file));
  if (zones.length !== GRID_CELLS) throw new Error(`${file} has ${zones.length} cells where the grid has ${GRID_CELLS}: rebuild the package with this version (\`catintel model build earthquake --out ${modelDir}\`)`);
  return zones;
}

/** Keys for each location; cellZones undefined: every cell in the default zone (vulnerabilities before a catalog exists). */
export function earthquakeKeys(locations: { locId: number; row: OedRow }[], cellZones: Uint8Array | undefined): { keys: KeyRow[]; errors: KeyError[] } {
  const keys: KeyRow[] = [];
  const errors: KeyError[] = [];
  for (const { locId, row } of locations) {
    const lat = Number(row.Latitude ?? row.latitude);
    const lng = Number(row.Longitude ?? row.longitude);
    const fail = (status: KeyError['status'], message: string) => {
      for (const c of KEYS_COVERAGES) errors.push({ locId, perilId: KEYS_PERIL, coverageTypeId: c, status, message });
    };
    if (row.Latitude === '' || row.Longitude === '' || !Number.isFinite(lat) || !Number.isFinite(lng)) {
      fail('fail', 'no Latitude/Longitude: the earthquake model places a location by its coordinates');
      continue;
    }
    const cell = cellOf(lat, lng);
    if (!cell) {
      fail('nomatch', `(${lat}, ${lng}) is outside the earthquake model's domain, the contiguous US (${CONUS_BOX.south}–${CONUS_BOX.north}°N, ${-CONUS_BOX.east}–${-CONUS_BOX.west}°W)`);
      continue;
    }
    const zoneByte = cellZones?.[cell.row * GRID_COLS + cell.col];
    const seismicZone: SeismicZone | undefined = zoneByte ? SEISMIC_ZONES[zoneByte - 1] : undefined;
    const soil = siteVs30Of(row);
    const site = { ...(seismicZone && { seismicZone }), ...(soil.vs30 !== undefined && { vs30: soil.vs30 }), ...(soil.note && { vs30Note: soil.note }) };
    for (const c of KEYS_COVERAGES) {
      const v = vulnerabilityIdFor(row, c, site);
      keys.push({ locId, perilId: KEYS_PERIL, coverageTypeId: c, areaPerilId: areaperilId(cell.row, cell.col), vulnerabilityId: v.id, message: v.message });
    }
  }
  return { keys, errors };
}
