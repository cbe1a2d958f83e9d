/**
 * The wind model's grid: a regular 0.05° (about 5.5 km north–south, 4.5–5 km east–west) latitude/
 * longitude grid over the hurricane domain of the contiguous US, 24–48°N, 106–66°W (Key West to
 * northern Maine, the Texas coast to 106°W, where no Atlantic or Gulf hurricane has kept hurricane-force
 * winds). The areaperil_id of a cell is dense and computable from its row and column, row·COLS + col + 1,
 * so the keys lookup needs no table: a location's cell is two floor() calls away.
 */
export const GRID_DEG = 0.05;
export const GRID_SOUTH = 24.0;
export const GRID_WEST = -106.0;
export const GRID_ROWS = 480;
export const GRID_COLS = 800;
export const GRID_CELLS = GRID_ROWS * GRID_COLS;

export interface GridCell {
  row: number;
  col: number;
}

/** The cell holding (lat, lng), or null outside the grid. */
export function cellOf(lat: number, lng: number): GridCell | null {
  const row = Math.floor((lat - GRID_SOUTH) / GRID_DEG);
  const col = Math.floor((lng - GRID_WEST) / GRID_DEG);
  if (!(row >= 0 && row < GRID_ROWS && col >= 0 && col < GRID_COLS)) return null;
  return { row, col };
}

export function areaperilId(row: number, col: number): number {
  return row * GRID_COLS + col + 1;
}

export function cellOfAreaperil(id: number): GridCell {
  const k = id - 1;
  return { row: Math.floor(k / GRID_COLS), col: k % GRID_COLS };
}

export function cellCentre(row: number, col: number): { lat: number; lng: number } {
  return { lat: GRID_SOUTH + (row + 0.5) * GRID_DEG, lng: GRID_WEST + (col + 0.5) * GRID_DEG };
}

/**
 * The land of the grid: which cells hold US land (and so are written to footprints), and each land
 * cell's distance inland from the sea coast (km), which sets the roughness change (wind-field/surface.ts).
 */
export interface LandGrid {
  /** 1 where the cell is US land (index row·COLS + col). */
  land: Uint8Array;
  /** Distance (km) from the cell centre to the sea coast; 0 for cells whose centre is water; Infinity far inland. */
  inlandKm: Float32Array;
}
