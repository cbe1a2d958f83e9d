/**
 * From an OED location row to the HAZUS flood class its surge vulnerability is built for, its first-floor
 * elevation band, and the Oasis vulnerability_id of (class, band, coverage).
 *
 * HAZUS flood damage depends on the occupancy, the stories and the foundation, not on the construction
 * material, so the class is read from OccupancyCode (and NumberOfStoreys); ConstructionCode matters only
 * for manufactured homes, which have their own curve. The curves are HAZUS 4.0's default depth-damage
 * functions for a building without a basement: the coastal A-zone table for residential occupancies (surge
 * without breaking waves: the surge model has no waves), the riverine table for commercial and industrial
 * ones (the coastal tables hold residential occupancies only). A class of several curves (stories unknown)
 * weighs them equally.
 *
 * vulnerability_id = 900,000,000 + class·100,000 + band·10 + coverage (1 buildings, 2 other structures,
 * 3 contents): 900,400,321 is class 4 (single-family, stories unknown), band 32, buildings. Coverage 4
 * (business interruption) has no surge vulnerability: HAZUS flood gives BI from restoration times by
 * occupancy, which this model does not carry.
 */
import { numericField, type OedRow } from '../../../shared/oed-row.js';
import { ELEVATION_BAND_COUNT } from './surge-bins.js';

export interface FloodClass {
  /** 1..99, the class digits of the vulnerability_id. */
  index: number;
  key: string;
  label: string;
  /** HAZUS FAST SpecificOccupId of each curve, with the table it is read from, weighted equally. */
  curves: string[];
  table: 'CoastalA' | 'Riverine';
}

const CLASSES: Omit<FloodClass, 'index'>[] = [
  { key: 'RES1.1', label: 'single-family, 1 story', curves: ['R11N'], table: 'CoastalA' },
  { key: 'RES1.2', label: 'single-family, 2 stories', curves: ['R12N'], table: 'CoastalA' },
  { key: 'RES1.3', label: 'single-family, 3+ stories', curves: ['R13N'], table: 'CoastalA' },
  { key: 'RES1', label: 'single-family, stories unknown', curves: ['R11N', 'R12N'], table: 'CoastalA' },
  { key: 'RES2', label: 'manufactured home', curves: ['R21N'], table: 'CoastalA' },
  { key: 'RES3.L', label: 'multi-family, 1-2 stories', curves: ['R3A1N'], table: 'CoastalA' },
  { key: 'RES3.H', label: 'multi-family, 3+ stories', curves: ['R3A3N'], table: 'CoastalA' },
  { key: 'RES3', label: 'multi-family, stories unknown', curves: ['R3A1N', 'R3A3N'], table: 'CoastalA' },
  { key: 'COM1', label: 'retail', curves: ['C1LN'], table: 'Riverine' },
  { key: 'COM2', label: 'wholesale / warehouse', curves: ['C2LN'], table: 'Riverine' },
  { key: 'COM4', label: 'office / services', curves: ['C4LN'], table: 'Riverine' },
  { key: 'IND2', label: 'light industrial', curves: ['I2LN'], table: 'Riverine' },
];

export const FLOOD_CLASSES: FloodClass[] = CLASSES.map((c, i) => ({ ...c, index: i + 1 }));
export const DEFAULT_FLOOD_CLASS = 'RES1';
const BY_KEY = new Map(FLOOD_CLASSES.map((c) => [c.key, c]));
export function floodClass(key: string): FloodClass {
  const c = BY_KEY.get(key);
  if (!c) throw new Error(`no flood class ${key}`);
  return c;
}

/** The coverage types with a surge vulnerability. */
export const SURGE_COVERAGES = [1, 2, 3] as const;
const ID_BASE = 900_000_000;

export function surgeVulnerabilityId(classIndex: number, band: number, coverageType: number): number {
  return ID_BASE + classIndex * 100_000 + band * 10 + coverageType;
}

export function surgeVulnerabilityKeyOf(id: number): { floodClass: FloodClass; band: number; coverageType: number } | undefined {
  if (!Number.isInteger(id) || id < ID_BASE) return undefined;
  const rest = id - ID_BASE;
  const floodClass = FLOOD_CLASSES[Math.floor(rest / 100_000) - 1];
  const band = Math.floor((rest % 100_000) / 10);
  const coverageType = rest % 10;
  if (!floodClass || band >= ELEVATION_BAND_COUNT || !(SURGE_COVERAGES as readonly number[]).includes(coverageType)) return undefined;
  return { floodClass, band, coverageType };
}

/** OED OccupancyCode groups (residential 105x/107x, commercial 11xx, industrial 115x), as the wind lookup reads them. */
const SINGLE_FAMILY = [1050, 1051, 1055, 1056, 1070, 1071, 1072, 1073];
const MULTI_FAMILY = [1052, 1053, 1054, 1057, 1058, 1115, 1116];
const RETAIL = [1101, 1103, 1119, 1120, 1121];
const WAREHOUSE = [1102, 1122];

export interface FloodClassChoice {
  floodClass: FloodClass;
  message: string;
}

export function floodClassFor(row: OedRow): FloodClassChoice {
  const occupancy = numericField(row, 'OccupancyCode');
  const construction = numericField(row, 'ConstructionCode');
  const storeys = numericField(row, 'NumberOfStoreys');
  const pick = (key: string, why: string) => ({ floodClass: floodClass(key), message: `surge: HAZUS flood ${key} (${floodClass(key).label}) ${why}` });
  if (construction !== undefined && construction >= 5350 && construction <= 5354) return pick('RES2', `from ConstructionCode ${construction}`);
  if (occupancy !== undefined && SINGLE_FAMILY.includes(occupancy)) {
    if (storeys === undefined || storeys <= 0) return pick('RES1', `from OccupancyCode ${occupancy}, NumberOfStoreys not given`);
    return pick(storeys === 1 ? 'RES1.1' : storeys === 2 ? 'RES1.2' : 'RES1.3', `from OccupancyCode ${occupancy}, ${storeys} storeys`);
  }
  if (occupancy !== undefined && MULTI_FAMILY.includes(occupancy)) {
    if (storeys === undefined || storeys <= 0) return pick('RES3', `from OccupancyCode ${occupancy}, NumberOfStoreys not given`);
    return pick(storeys <= 2 ? 'RES3.L' : 'RES3.H', `from OccupancyCode ${occupancy}, ${storeys} storeys`);
  }
  if (occupancy !== undefined && RETAIL.includes(occupancy)) return pick('COM1', `from OccupancyCode ${occupancy}`);
  if (occupancy !== undefined && WAREHOUSE.includes(occupancy)) return pick('COM2', `from OccupancyCode ${occupancy}`);
  if (occupancy !== undefined && occupancy >= 1150 && occupancy <= 1159) return pick('IND2', `from OccupancyCode ${occupancy}`);
  if (occupancy !== undefined && (occupancy === 1100 || (occupancy >= 1104 && occupancy <= 1125) || (occupancy >= 1200 && occupancy <= 1231))) return pick('COM4', `from OccupancyCode ${occupancy}`);
  return pick(DEFAULT_FLOOD_CLASS, `by default: OccupancyCode ${occupancy ?? 'not given'} is not one this model maps`);
}
