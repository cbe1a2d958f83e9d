/**
 * Which way the sea lies from each near-coast cell of the wind grid: the unit vector (east, north) towards
 * the grid's water cells within SEARCH_CELLS, each weighted by 1/distance. The surge model needs it to
 * tell an onshore wind (which piles water against the coast) from an offshore one (which does not).
 * Where water lies on every side (a barrier island, a narrow peninsula) the vector is short; below
 * MIN_RELATIVE_LENGTH (of the total weight), or with no water cell in the window at all, the direction is
 * left undefined and the cell takes the whole wind as onshore (the larger surge: the model errs high there).
 */
import { GRID_COLS, GRID_ROWS, GRID_SOUTH, GRID_DEG, type LandGrid } from '../footprint/grid.js';

/** ±4 cells (about 20 km): reaches the water from a cell up to the 10 km the grid measures inland. */
const SEARCH_CELLS = 4;
const MIN_RELATIVE_LENGTH = 0.02;

export interface SeawardDirections {
  /** Unit vector towards the sea, east and north; (0, 0) where undefined. Index row·COLS + col. */
  east: Float32Array;
  north: Float32Array;
}

const cache = new WeakMap<LandGrid, SeawardDirections>();

export function seawardDirections(grid: LandGrid): SeawardDirections {
  const hit = cache.get(grid);
  if (hit) return hit;
  const east = new Float32Array(grid.land.length);
  const north = new Float32Array(grid.land.length);
  const side = 2 * SEARCH_CELLS + 1;
  // A window cell's distance depends on its row and offset only: computed once a row, not once a cell
  // (Math.hypot is slow in V8, and a row has hundreds of coast cells).
  const distance = new Float64Array(side * side);
  for (let r = 0; r < GRID_ROWS; r++) {
    const cos = Math.cos(((GRID_SOUTH + (r + 0.5) * GRID_DEG) * Math.PI) / 180);
    for (let dr = -SEARCH_CELLS; dr <= SEARCH_CELLS; dr++)
      for (let dc = -SEARCH_CELLS; dc <= SEARCH_CELLS; dc++)
        distance[(dr + SEARCH_CELLS) * side + dc + SEARCH_CELLS] = Math.hypot(dc * cos, dr);
    for (let c = 0; c < GRID_COLS; c++) {
      const k = r * GRID_COLS + c;
      if (!grid.land[k] || !Number.isFinite(grid.inlandKm[k])) continue;
      let e = 0;
      let n = 0;
      let weights = 0;
      for (let dr = -SEARCH_CELLS; dr <= SEARCH_CELLS; dr++) {
        const rr = r + dr;
        if (rr < 0 || rr >= GRID_ROWS) continue;
        for (let dc = -SEARCH_CELLS; dc <= SEARCH_CELLS; dc++) {
          const cc = c + dc;
          if ((dr === 0 && dc === 0) || cc < 0 || cc >= GRID_COLS) continue;
          const x = dc * cos;
          const y = dr;
          const d = distance[(dr + SEARCH_CELLS) * side + dc + SEARCH_CELLS];
          weights += 1 / d;
          if (grid.land[rr * GRID_COLS + cc]) continue;
          e += x / (d * d);
          n += y / (d * d);
        }
      }
      const len = Math.hypot(e, n);
      // Relative to the total weight, water on one whole side gives about 0.3; water balanced on both sides ~0.
      if (len === 0 || len / weights < MIN_RELATIVE_LENGTH) continue;
      east[k] = e / len;
      north[k] = n / len;
    }
  }
  const out = { east, north };
  cache.set(grid, out);
  return out;
}
