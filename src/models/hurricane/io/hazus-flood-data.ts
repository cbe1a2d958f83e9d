/**
 * Reads HAZUS 4.0's default flood depth-damage functions (FEMA FAST lookup tables, taken unchanged from the
 * Hazus 4.0 database): per table (coastal A zone, riverine) and per SpecificOccupId, the structure and the
 * contents curve as damage in % at depths of −4 … +24 ft above the first floor, 1 ft apart.
 */
import fs from 'node:fs';
import path from 'node:path';
import { readCsvColumns } from '../../../oasis-files/read-csv-columns.js';
import { CURVE_DEPTHS_FT } from '../domain/surge/depth-damage.js';

export const HAZUS_FLOOD_DIR = 'vulnerability/hazus_flood_fast_lut_hazus40';
const COLUMNS = CURVE_DEPTHS_FT.map((d) => (d < 0 ? `m${-d}` : `p${d}`));

export type FloodTable = 'CoastalA' | 'Riverine';
export interface FloodCurves {
  /** Damage ratio (0..1) at CURVE_DEPTHS_FT, by SpecificOccupId. */
  building: Map<string, number[]>;
  contents: Map<string, number[]>;
}

function readTable(file: string): Map<string, number[]> {
  const t = readCsvColumns(file, ['SpecificOccupId', 'Basement', ...COLUMNS], file);
  const ids = t.cols.get('SpecificOccupId');
  if (!ids || COLUMNS.some((c) => !t.cols.has(c))) throw new Error(`${file} is not a HAZUS FAST depth-damage table (SpecificOccupId, m4 … p24)`);
  const out = new Map<string, number[]>();
  for (let i = 0; i < t.rows; i++) {
    if (out.has(ids[i])) continue;
    out.set(ids[i], COLUMNS.map((c) => Number(t.cols.get(c)![i]) / 100));
  }
  return out;
}

export function readHazusFloodCurves(dataDir: string, table: FloodTable): FloodCurves {
  const dir = path.join(dataDir, HAZUS_FLOOD_DIR);
  if (!fs.existsSync(dir)) throw new Error(`HAZUS flood depth-damage data not found at ${dir}; pass the shared data directory (the one holding vulnerability/)`);
  return {
    building: readTable(path.join(dir, `Building_DDF_${table}_LUT_Hazus4p0.csv`)),
    contents: readTable(path.join(dir, `Content_DDF_${table}_LUT_Hazus4p0.csv`)),
  };
}
