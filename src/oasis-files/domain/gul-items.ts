/**
 * Ground-up items from the keys and the locations, as Oasis builds them: one item per key and building
 * whose coverage has a TIV (a location's TIV split evenly over its NumberOfBuildings, each building its
 * own item), items numbered in keys order, coverages numbered by first appearance of (location,
 * building, coverage type). Columns, not row objects: a million locations make four million items.
 */
import { CatintelError } from '../../errors.js';
import { MAX_COVERAGE_TYPE } from './coverage-types.js';
import type { KeysTable } from './keys-table.js';

/**
 * The columns the items need, indexed by exposure row: a location, or an account of an account-only
 * cyber book (which Oasis numbers and values as it does a location).
 */
export interface LocationColumns {
  rows: number;
  locId: Int32Array;
  /** TIV by coverage type - 1 (1-4 property, 7-15 cyber); absent for a type the book has no value of. */
  tiv: readonly (Float64Array | undefined)[];
  numberOfBuildings: Float64Array;
  groupId: Uint32Array;
}

export interface GulItems {
  count: number;
  itemId: Int32Array;
  coverageId: Int32Array;
  /** Location row (loc_idx) of each item. */
  locRow: Int32Array;
  keyRow: Int32Array;
  buildingId: Int32Array;
  tiv: Float64Array;
  coverages: number;
  /** TIV of each coverage, by coverage_id - 1. */
  coverageTiv: Float64Array;
}

export function gulItems(keys: KeysTable, loc: LocationColumns): GulItems {
  // First location row of each location number; a location with no TIV at all is left out.
  const rowOfId = firstRows(loc);
  const cap = keys.locId.length;
  let itemsCap = 0;
  for (let k = 0; k < cap; k++) {
    const r = rowOfId.get(keys.locId[k]);
    if (r !== undefined) itemsCap += Math.max(1, Math.trunc(loc.numberOfBuildings[r]) || 1);
  }
  const locRow = new Int32Array(itemsCap);
  const keyRow = new Int32Array(itemsCap);
  const buildingId = new Int32Array(itemsCap);
  const tiv = new Float64Array(itemsCap);
  let n = 0;
  // A key repeated for one (location, peril, coverage type) makes no second item: the first key wins.
  // Keyed by one exact number where location id, peril and coverage type fit (text otherwise).
  const keyed = new Set<number | string>();
  // Where the location ids are dense, a location's (peril, coverage type) keys are bits of one number.
  const keyedBits: Uint16Array[] = [];
  const perilIds = new Map<string, number>();
  for (let k = 0; k < cap; k++) {
    const r = rowOfId.get(keys.locId[k]);
    if (r === undefined) continue;
    let peril = perilIds.get(keys.perilId[k]);
    if (peril === undefined) {
      peril = perilIds.size;
      perilIds.set(keys.perilId[k], peril);
    }
    if (rowOfId.dense && keys.coverageTypeId[k] >= 0 && keys.coverageTypeId[k] <= MAX_COVERAGE_TYPE) {
      const bits = (keyedBits[peril] ??= new Uint16Array(rowOfId.size));
      const bit = 1 << keys.coverageTypeId[k];
      if (bits[keys.locId[k]] & bit) continue;
      bits[keys.locId[k]] |= bit;
    } else {
      // Coverage types run to MAX_COVERAGE_TYPE (15, cyber): four bits.
      const fits =
        keys.locId[k] >= 0 &&
        keys.locId[k] < 2 ** 31 &&
        peril < 2 ** 12 &&
        keys.coverageTypeId[k] >= 0 &&
        keys.coverageTypeId[k] <= MAX_COVERAGE_TYPE;
      const once = fits
        ? (keys.locId[k] * 2 ** 12 + peril) * 16 + keys.coverageTypeId[k]
        : `${keys.locId[k]}|${keys.perilId[k]}|${keys.coverageTypeId[k]}`;
      if (keyed.has(once)) continue;
      keyed.add(once);
    }
    const c = keys.coverageTypeId[k];
    const values = c >= 1 && c <= MAX_COVERAGE_TYPE ? loc.tiv[c - 1] : undefined;
    if (!values) continue;
    const buildings = Math.max(1, Math.trunc(loc.numberOfBuildings[r]) || 1);
    const v = values[r] / buildings;
    if (!(v > 0)) continue;
    for (let b = 1; b <= buildings; b++) {
      locRow[n] = r;
      keyRow[n] = k;
      buildingId[n] = b;
      tiv[n] = v;
      n++;
    }
  }
  const coverageId = new Int32Array(n);
  const coverageTiv: number[] = [];
  // One coverage per location, building and coverage type (1-15), keyed by one exact number (location
  // ids stay below 2^26, buildings below 2^20) rather than text, as there is one lookup per item.
  const seen = new Map<number, number>();
  // Where the location ids are dense, a first building's coverages are looked up by position instead.
  const firstBuilding = rowOfId.dense ? new Int32Array(rowOfId.size * 16) : null;
  let coverages = 0;
  for (let i = 0; i < n; i++) {
    const locationId = loc.locId[locRow[i]];
    if (locationId >= 2 ** 26 || buildingId[i] >= 2 ** 20)
      throw new CatintelError(
        'invalid_input',
        `location ${locationId} building ${buildingId[i]}: more locations or buildings than one set of Oasis files numbers here; split the portfolio`,
      );
    const coverageType = keys.coverageTypeId[keyRow[i]];
    if (firstBuilding !== null && buildingId[i] === 1) {
      const at = locationId * 16 + coverageType;
      if (firstBuilding[at] === 0) {
        firstBuilding[at] = ++coverages;
        coverageTiv.push(tiv[i]);
      }
      coverageId[i] = firstBuilding[at];
      continue;
    }
    const key = (locationId * 2 ** 20 + buildingId[i]) * 16 + coverageType;
    let id = seen.get(key);
    if (id === undefined) {
      id = ++coverages;
      seen.set(key, id);
      coverageTiv.push(tiv[i]);
    }
    coverageId[i] = id;
  }
  const itemId = Int32Array.from({ length: n }, (_, i) => i + 1);
  return {
    count: n,
    itemId,
    coverageId,
    locRow: locRow.subarray(0, n),
    keyRow: keyRow.subarray(0, n),
    buildingId: buildingId.subarray(0, n),
    tiv: tiv.subarray(0, n),
    coverages,
    coverageTiv: Float64Array.from(coverageTiv),
  };
}

/** The first row of each location id that has some TIV: by position where the ids are dense, else a Map. */
interface FirstRows {
  get(locId: number): number | undefined;
  /** Ids are whole numbers in [0, size). */
  dense: boolean;
  size: number;
}

function firstRows(loc: LocationColumns): FirstRows {
  const hasTiv = (r: number) => loc.tiv.some((t) => t !== undefined && t[r] !== 0);
  let max = -1;
  let dense = true;
  for (let r = 0; r < loc.rows; r++) {
    const id = loc.locId[r];
    if (id < 0) dense = false;
    if (id > max) max = id;
  }
  // Oasis numbers locations (and an account-only book's accounts) 1..n.
  if (dense && max < 4 * loc.rows + 1024) {
    const size = max + 1;
    const rows = new Int32Array(size).fill(-1);
    for (let r = 0; r < loc.rows; r++) if (rows[loc.locId[r]] < 0 && hasTiv(r)) rows[loc.locId[r]] = r;
    return {
      get: (locId) => (locId >= 0 && locId < size && rows[locId] >= 0 ? rows[locId] : undefined),
      dense: true,
      size,
    };
  }
  const rowOfId = new Map<number, number>();
  for (let r = 0; r < loc.rows; r++) if (!rowOfId.has(loc.locId[r]) && hasTiv(r)) rowOfId.set(loc.locId[r], r);
  return { get: (locId) => rowOfId.get(locId), dense: false, size: 0 };
}
