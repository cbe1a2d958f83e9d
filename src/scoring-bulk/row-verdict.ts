/**
 * What a row of a bulk input is to the scoring: blank, not UTF-8, malformed, bad coordinates, outside
 * coverage, or its grid cell. The main pass (outputs, errors.csv) and the Oasis keys pass classify through
 * this one function, so they agree on every row; both read the rows through src/csv/read-rows.ts.
 */
import { cellAt, type HazardGrid } from '../domain/scoring/grid.js';
import { parseCoordinate } from '../csv/coordinates.js';
import type { ScannedRow } from '../csv/scanner.js';
import { rowUtf8Problem } from '../csv/utf8-row.js';

/** Row verdicts below 0; a verdict >= 0 is the row's grid cell. */
export const INVALID_UTF8 = -6;
export const BLANK = -5;
export const UNTERMINATED = -4;
export const WRONG_FIELD_COUNT = -3;
export const BAD_COORDINATES = -2;
export const OUTSIDE = -1;

export interface RowRules {
  grid: HazardGrid;
  fieldCount: number;
  latIndex: number;
  lngIndex: number;
}

/** Parsed coordinates of the last classified row (set when the verdict is OUTSIDE or a cell). */
export const lastCoordinates = { lat: NaN, lng: NaN };

export function classifyRow(r: ScannedRow, rules: RowRules): number {
  if (r.fieldCount === 1 && r.rowEnd === r.rowStart) return BLANK;
  if (r.mayHoldInvalidUtf8 && rowUtf8Problem(r)) return INVALID_UTF8;
  if (r.unterminated) return UNTERMINATED;
  if (r.fieldCount !== rules.fieldCount) return WRONG_FIELD_COUNT;
  const lat = parseCoordinate(r, rules.latIndex);
  const lng = parseCoordinate(r, rules.lngIndex);
  lastCoordinates.lat = lat;
  lastCoordinates.lng = lng;
  if (!(lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180)) return BAD_COORDINATES;
  return cellAt(rules.grid, lat, lng);
}
