/**
 * The live set's points in a grid of latitude-longitude cells, for /events/nearby. A radius search reads the
 * cells its prefilter box overlaps, and of those only the cells that straddle the circle row by row: a cell
 * wholly outside the circle is skipped, and a cell wholly inside it (and inside the box) is counted from the
 * phase's per-cell counts (phase.ts) and read row by row only if it can hold one of the page's nearest.
 * A 1,000 km search over the clustered live set used to test every one of its thousands of rows.
 *
 * Each cell keeps the bounding sphere of its points as unit vectors (centre and chord radius): by the triangle
 * inequality every point of the cell lies between |q - c| - r and |q - c| + r of a query point q, so the
 * cell's side of the circle is decided without touching its rows. Its bounding box in degrees decides the
 * prefilter box the same way.
 */

/** Cell edge in degrees. */
export const CELL_DEGREES = 0.5;
const BANDS = Math.round(180 / CELL_DEGREES);
const COLUMNS = Math.round(360 / CELL_DEGREES);

/**
 * Chord slack added to each cell's radius: a few units in the last place of the chords, so that the rounding of
 * the cell's bounds and of a row's own chord (select.ts) can never put a row on the wrong side of a bound.
 */
const CHORD_SLACK = 1e-14;

export interface Grid {
  /** The non-empty cells' keys (cellKey()), ascending. */
  keys: Int32Array;
  /** The first cell of each band (bandOf()), and the cell count at BANDS: a band's cells are bandStart[b] up to bandStart[b + 1]. */
  bandStart: Uint32Array;
  /** Cell c holds the positions members[start[c]] up to members[start[c + 1]], ascending. */
  start: Uint32Array;
  members: Uint32Array;
  /** Each position's cell. */
  cellOf: Uint32Array;
  /**
   * The members' coordinates in members' order (entry k is position members[k]'s): a cell's rows are read in
   * sequence. By position they lie scattered (positions are newest first), a cache miss per row and column on a
   * busy server.
   */
  memberLat: Float64Array;
  memberLng: Float64Array;
  memberCosLat: Float64Array;
  memberX: Float64Array;
  memberY: Float64Array;
  memberZ: Float64Array;
  /** Per cell: its points' bounding sphere (centre as a unit vector, chord radius with CHORD_SLACK). */
  cx: Float64Array;
  cy: Float64Array;
  cz: Float64Array;
  radius: Float64Array;
  /** Per cell: its points' bounding box in degrees. */
  minLat: Float64Array;
  maxLat: Float64Array;
  minLng: Float64Array;
  maxLng: Float64Array;
}

/** The band of a latitude and the column of a longitude: monotonic, so a box's edges bound its points' cells. */
export const bandOf = (lat: number): number => Math.min(BANDS - 1, Math.max(0, Math.floor((lat + 90) / CELL_DEGREES)));
export const columnOf = (lng: number): number =>
  Math.min(COLUMNS - 1, Math.max(0, Math.floor((lng + 180) / CELL_DEGREES)));
/** A cell's key: cells sort by band, then column. */
export const cellKey = (band: number, column: number): number => band * COLUMNS + column;

/** The grid over points given as columns by position (a snapshot's latitudes and longitudes). */
export function buildGrid(c: { lat: Float64Array; lng: Float64Array }): Grid {
  const n = c.lat.length;
  const keyOf = new Int32Array(n);
  for (let i = 0; i < n; i++) keyOf[i] = cellKey(bandOf(c.lat[i]), columnOf(c.lng[i]));
  // Positions by cell, ascending within a cell (a stable sort of ascending positions).
  const members = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => keyOf[a] - keyOf[b] || a - b);
  const keys: number[] = [];
  const start: number[] = [];
  for (let k = 0; k < n; k++) {
    if (k === 0 || keyOf[members[k]] !== keyOf[members[k - 1]]) {
      keys.push(keyOf[members[k]]);
      start.push(k);
    }
  }
  start.push(n);
  const cells = keys.length;
  const memberLat = byMember(members, c.lat);
  const memberLng = byMember(members, c.lng);
  // cos(radians(lat)), the haversine's per-event factor, and the point as a unit vector (x toward 0°E on the
  // equator, z toward the north pole): chords without trigonometry.
  const rad = Math.PI / 180;
  const memberCosLat = memberLat.map((lat) => Math.cos(lat * rad));
  const memberX = memberCosLat.map((cosLat, k) => cosLat * Math.cos(memberLng[k] * rad));
  const memberY = memberCosLat.map((cosLat, k) => cosLat * Math.sin(memberLng[k] * rad));
  const memberZ = memberLat.map((lat) => Math.sin(lat * rad));
  const g: Grid = {
    keys: Int32Array.from(keys),
    bandStart: bandStarts(keys),
    start: Uint32Array.from(start),
    members,
    cellOf: new Uint32Array(n),
    memberLat,
    memberLng,
    memberCosLat,
    memberX,
    memberY,
    memberZ,
    cx: new Float64Array(cells),
    cy: new Float64Array(cells),
    cz: new Float64Array(cells),
    radius: new Float64Array(cells),
    minLat: new Float64Array(cells),
    maxLat: new Float64Array(cells),
    minLng: new Float64Array(cells),
    maxLng: new Float64Array(cells),
  };
  for (let cell = 0; cell < cells; cell++) {
    let [sx, sy, sz] = [0, 0, 0];
    let [minLat, maxLat, minLng, maxLng] = [Infinity, -Infinity, Infinity, -Infinity];
    for (let k = start[cell]; k < start[cell + 1]; k++) {
      g.cellOf[members[k]] = cell;
      sx += memberX[k];
      sy += memberY[k];
      sz += memberZ[k];
      minLat = Math.min(minLat, memberLat[k]);
      maxLat = Math.max(maxLat, memberLat[k]);
      minLng = Math.min(minLng, memberLng[k]);
      maxLng = Math.max(maxLng, memberLng[k]);
    }
    // The centre: the points' mean direction (any point would do; the mean keeps the radius small).
    const norm = Math.hypot(sx, sy, sz) || 1;
    const [x, y, z] = [sx / norm, sy / norm, sz / norm];
    let r = 0;
    for (let k = start[cell]; k < start[cell + 1]; k++)
      r = Math.max(r, Math.hypot(memberX[k] - x, memberY[k] - y, memberZ[k] - z));
    g.cx[cell] = x;
    g.cy[cell] = y;
    g.cz[cell] = z;
    g.radius[cell] = r + CHORD_SLACK;
    g.minLat[cell] = minLat;
    g.maxLat[cell] = maxLat;
    g.minLng[cell] = minLng;
    g.maxLng[cell] = maxLng;
  }
  return g;
}

/** A column by position, reordered as `members`. */
const byMember = (members: Uint32Array, column: Float64Array): Float64Array =>
  Float64Array.from(members, (i) => column[i]);

function bandStarts(keys: number[]): Uint32Array {
  const bandStart = new Uint32Array(BANDS + 1);
  for (let b = 0, c = 0; b <= BANDS; b++) {
    while (c < keys.length && keys[c] < b * COLUMNS) c++;
    bandStart[b] = c;
  }
  return bandStart;
}

/** The first cell whose key is at least `key` (a binary search within its band); the cell count if none is. */
export function firstCellFrom(g: Grid, key: number): number {
  const band = Math.floor(key / COLUMNS);
  let lo = g.bandStart[band];
  let hi = g.bandStart[band + 1];
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (g.keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
