/**
 * A raster of US state land over the Atlantic/Gulf basin, so that the event set can ask "over which state's
 * land is this centre?" millions of times in constant time. Cells are STEP_DEG square (about 2 km, finer
 * than the barrier islands and sounds a landfall crosses); each holds 0 for water (or land outside the
 * US, see docs/hurricane-model.md#event-set) or 1 + the index of the state in `states`. A second, coarse
 * raster holds each cell's distance to the nearest US land, used to keep only storms that can matter to
 * the US and to trim their tracks.
 */
export interface StateShape {
  /** Two-letter postal code, e.g. FL. */
  code: string;
  /** Polygons as rings of [lng, lat]; rings of one state are filled even-odd (holes are rings too). */
  rings: Array<Array<[number, number]>>;
}

export const MASK_BOX = { south: 15, north: 48, west: -100, east: -64 } as const;
const STEP_DEG = 0.02;
const COARSE_STEP_DEG = 0.1;

/**
 * The Great Lakes and the land around them north of 41.3°N between 92.3°W and 74°W (the box the coast
 * distance also removes): inland, so a storm there decays as over land, and a crossing from a lake is not
 * a landfall.
 */
function isInland(lat: number, lng: number): boolean {
  return lat > 41.3 && lng > -92.3 && lng < -74.0;
}
const INLAND = 255;

export interface LandMask {
  codes: string[];
  /** 0 if not over a state's land, else 1 + index into codes. */
  stateIndexAt(lat: number, lng: number): number;
  /** Over US land, or inland (the Great Lakes region): where a storm decays. */
  overLand(lat: number, lng: number): boolean;
  /** Over open water (sea, sounds, bays, or land outside the US and the Great Lakes region). */
  overSea(lat: number, lng: number): boolean;
  /** Approximate distance (km) to the nearest US land cell; Infinity outside the box. */
  distanceToUsKm(lat: number, lng: number): number;
  /** The nearest state (1 + index) within maxKm of a point, 0 if none (places a record's landfall point on a state). */
  nearestStateIndex(lat: number, lng: number, maxKm: number): number;
}

function rasterize(states: StateShape[], rows: number, cols: number): Uint8Array {
  const grid = new Uint8Array(rows * cols);
  states.forEach((state, s) => {
    // Scanline fill: for each row centre, the x where the state's edges cross it, filled in pairs.
    const crossings: number[][] = Array.from({ length: rows }, () => []);
    for (const ring of state.rings) {
      for (let k = 0; k < ring.length; k++) {
        const [x1, y1] = ring[k];
        const [x2, y2] = ring[(k + 1) % ring.length];
        if (y1 === y2) continue;
        const lo = Math.min(y1, y2);
        const hi = Math.max(y1, y2);
        const r0 = Math.max(0, Math.ceil((lo - MASK_BOX.south) / STEP_DEG - 0.5));
        const r1 = Math.min(rows - 1, Math.floor((hi - MASK_BOX.south) / STEP_DEG - 0.5));
        for (let r = r0; r <= r1; r++) {
          const y = MASK_BOX.south + (r + 0.5) * STEP_DEG;
          if (y < lo || y >= hi) continue;
          crossings[r].push(x1 + ((y - y1) / (y2 - y1)) * (x2 - x1));
        }
      }
    }
    for (let r = 0; r < rows; r++) {
      const xs = crossings[r].sort((a, b) => a - b);
      for (let k = 0; k + 1 < xs.length; k += 2) {
        const c0 = Math.max(0, Math.ceil((xs[k] - MASK_BOX.west) / STEP_DEG - 0.5));
        const c1 = Math.min(cols - 1, Math.floor((xs[k + 1] - MASK_BOX.west) / STEP_DEG - 0.5));
        for (let c = c0; c <= c1; c++) grid[r * cols + c] = s + 1;
      }
    }
  });
  return grid;
}

/** Two-pass chamfer distance transform on the coarse grid, with the east-west step shrinking by cos(latitude). */
function distanceField(land: Uint8Array, rows: number, cols: number): Float32Array {
  const d = new Float32Array(rows * cols).fill(Infinity);
  for (let i = 0; i < land.length; i++) if (land[i]) d[i] = 0;
  const dy = COARSE_STEP_DEG * 111.2;
  const dxOf = (r: number) => dy * Math.cos(((MASK_BOX.south + (r + 0.5) * COARSE_STEP_DEG) * Math.PI) / 180);
  const relax = (i: number, j: number, w: number) => {
    if (d[j] + w < d[i]) d[i] = d[j] + w;
  };
  for (let pass = 0; pass < 2; pass++) {
    for (let r = 0; r < rows; r++) {
      const dx = dxOf(r);
      const diag = Math.hypot(dx, dy);
      for (let c = 0; c < cols; c++) {
        const i = r * cols + c;
        if (c > 0) relax(i, i - 1, dx);
        if (r > 0) {
          relax(i, i - cols, dy);
          if (c > 0) relax(i, i - cols - 1, diag);
          if (c < cols - 1) relax(i, i - cols + 1, diag);
        }
      }
    }
    for (let r = rows - 1; r >= 0; r--) {
      const dx = dxOf(r);
      const diag = Math.hypot(dx, dy);
      for (let c = cols - 1; c >= 0; c--) {
        const i = r * cols + c;
        if (c < cols - 1) relax(i, i + 1, dx);
        if (r < rows - 1) {
          relax(i, i + cols, dy);
          if (c > 0) relax(i, i + cols - 1, diag);
          if (c < cols - 1) relax(i, i + cols + 1, diag);
        }
      }
    }
  }
  return d;
}

export function buildLandMask(states: StateShape[]): LandMask {
  const rows = Math.round((MASK_BOX.north - MASK_BOX.south) / STEP_DEG);
  const cols = Math.round((MASK_BOX.east - MASK_BOX.west) / STEP_DEG);
  const grid = rasterize(states, rows, cols);
  const ratio = Math.round(COARSE_STEP_DEG / STEP_DEG);
  const cRows = rows / ratio;
  const cCols = cols / ratio;
  const coarseLand = new Uint8Array(cRows * cCols);
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) if (grid[r * cols + c]) coarseLand[Math.floor(r / ratio) * cCols + Math.floor(c / ratio)] = 1;
  const dist = distanceField(coarseLand, cRows, cCols);
  for (let r = 0; r < rows; r++) {
    const lat = MASK_BOX.south + (r + 0.5) * STEP_DEG;
    for (let c = 0; c < cols; c++) if (grid[r * cols + c] === 0 && isInland(lat, MASK_BOX.west + (c + 0.5) * STEP_DEG)) grid[r * cols + c] = INLAND;
  }

  const cellAt = (lat: number, lng: number): number => {
    const r = Math.floor((lat - MASK_BOX.south) / STEP_DEG);
    const c = Math.floor((lng - MASK_BOX.west) / STEP_DEG);
    if (r < 0 || r >= rows || c < 0 || c >= cols) return isInland(lat, lng) ? INLAND : 0;
    return grid[r * cols + c];
  };
  const stateIndexAt = (lat: number, lng: number): number => {
    const v = cellAt(lat, lng);
    return v === INLAND ? 0 : v;
  };
  return {
    codes: states.map((s) => s.code),
    stateIndexAt,
    overLand: (lat, lng) => cellAt(lat, lng) !== 0,
    overSea: (lat, lng) => cellAt(lat, lng) === 0,
    distanceToUsKm(lat, lng) {
      const r = Math.floor((lat - MASK_BOX.south) / COARSE_STEP_DEG);
      const c = Math.floor((lng - MASK_BOX.west) / COARSE_STEP_DEG);
      if (r < 0 || r >= cRows || c < 0 || c >= cCols) return Infinity;
      return dist[r * cCols + c];
    },
    nearestStateIndex(lat, lng, maxKm) {
      const here = stateIndexAt(lat, lng);
      if (here) return here;
      const kmPerLng = 111.2 * Math.cos((lat * Math.PI) / 180);
      const n = Math.ceil(maxKm / 111.2 / STEP_DEG);
      let best = 0;
      let bestKm = maxKm;
      for (let dr = -n; dr <= n; dr++) {
        for (let dc = -n; dc <= n; dc++) {
          const la = lat + dr * STEP_DEG;
          const ln = lng + dc * STEP_DEG * (111.2 / kmPerLng);
          const km = Math.hypot(dr * STEP_DEG * 111.2, dc * STEP_DEG * 111.2);
          if (km > bestKm) continue;
          const s = stateIndexAt(la, ln);
          if (s) {
            best = s;
            bestKm = km;
          }
        }
      }
      return best;
    },
  };
}
