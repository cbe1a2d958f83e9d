/**
 * The earthquake model package's areaperils: a 0.1° grid over the contiguous US box (24–50°N, 125–66°W),
 * 260 rows by 590 columns. 0.1° (about 11 km north–south, 8–10 km east–west) is the spacing of NSHM's
 * gridded seismicity; within a cell the median PGA of a nearby M 6 changes by less than the ground
 * motion's own scatter (σ 0.6–0.8 in ln units), which the footprint carries as bin probabilities.
 * areaperil_id = row · COLS + col + 1, row 0 the southernmost, col 0 the westernmost.
 */
import { CONUS_BOX } from '../site-hazard-curve.js';

export const GRID_DEG = 0.1;
export const GRID_SOUTH = CONUS_BOX.south;
export const GRID_WEST = CONUS_BOX.west;
export const GRID_ROWS = Math.round((CONUS_BOX.north - CONUS_BOX.south) / GRID_DEG);
export const GRID_COLS = Math.round((CONUS_BOX.east - CONUS_BOX.west) / GRID_DEG);
export const GRID_CELLS = GRID_ROWS * GRID_COLS;

export interface Cell {
  row: number;
  col: number;
}

/** The cell holding a point; undefined outside the box (the north and east edges belong to the box). */
export function cellOf(lat: number, lng: number): Cell | undefined {
  if (!(lat >= CONUS_BOX.south && lat <= CONUS_BOX.north && lng >= CONUS_BOX.west && lng <= CONUS_BOX.east)) return undefined;
  const row = Math.min(GRID_ROWS - 1, Math.floor((lat - GRID_SOUTH) / GRID_DEG + 1e-9));
  const col = Math.min(GRID_COLS - 1, Math.floor((lng - GRID_WEST) / GRID_DEG + 1e-9));
  return { row, col };
}

export function areaperilId(row: number, col: number): number {
  return row * GRID_COLS + col + 1;
}

/** The centre of a cell, where the footprint evaluates the ground motion. */
export function cellCentre(row: number, col: number): { lat: number; lng: number } {
  return { lat: GRID_SOUTH + (row + 0.5) * GRID_DEG, lng: GRID_WEST + (col + 0.5) * GRID_DEG };
}
