/**
 * /events/nearby over a snapshot: nearbyEvents() of src/store/events-read.ts predicate for predicate (whereOf,
 * the prefilter box, the haversine, nearest first then id), read cell by cell from the snapshot's grid
 * (grid.ts). Pure: no store, no clock.
 */
import { EARTH_RADIUS_KM } from '../lib/geo.js';
import { bandOf, cellKey, columnOf, firstCellFrom } from './grid.js';
import { CellQueue } from './cell-queue.js';
import { phaseAt } from './phase.js';
import { SmallestK, sortByDistance } from './rank.js';
import { maskOf, type IndexFilter } from './select.js';
import { entryAt, type Snapshot } from './snapshot.js';

/** Relative and absolute margins around the radius and the cut within which the exact haversine decides. */
const MARGIN = 1e-6;
const SLACK = 1e-20;

/** A page: the matched count, and the positions returned nearest first with their distances. */
export interface NearbyPage {
  matched: number;
  positions: number[];
  distancesKm: number[];
}

/** nearbyEvents(): within radiusKm, nearest first (then id), offset-paged, with the SQL's prefilter box. */
export function selectNearby(
  s: Snapshot,
  f: IndexFilter,
  at: { lat: number; lng: number; radiusKm: number },
  page: { limit: number; offset: number },
): NearbyPage {
  const dLat = at.radiusKm / 111.2;
  const cosLat = Math.cos((at.lat * Math.PI) / 180);
  const dLng = cosLat > 0.01 ? at.radiusKm / (111.2 * cosLat) : 360;
  const lngBox = at.lng - dLng > -180 && at.lng + dLng < 180;
  // The prefilter box is the SQL's BETWEENs, checked exactly for every row.
  const mask = maskOf(s, f, [
    lngBox ? at.lng - dLng : -180,
    at.lat - dLat,
    lngBox ? at.lng + dLng : 180,
    at.lat + dLat,
  ]);
  const { status, since, minLng, minLat, maxLng, maxLat } = mask;
  const types = mask.type === 0 ? 0xffff : mask.type;
  // Filters beyond status: their columns are read only when one applies.
  const filtered = mask.type !== 0 || since !== -Infinity;
  const { updatedUs, type: typeOf } = s.cols;
  // The SQL haversine (DISTANCE_SQL) term for term, radians(x) = x * (pi / 180): d = 2 R asin(min(1, sqrt(a))).
  // d grows with a, so a decides "within the radius" and the order, and d itself is computed only for the
  // rows returned. libm and V8 may round sin/asin apart in the last bit (docs/performance.md).
  const r = Math.PI / 180;
  const cosQ = Math.cos(at.lat * r);
  const exactA = (k: number) => {
    const sLat = Math.sin(((memberLat[k] - at.lat) * r) / 2);
    const sLng = Math.sin(((memberLng[k] - at.lng) * r) / 2);
    return sLat * sLat + cosQ * memberCosLat[k] * (sLng * sLng);
  };
  const dOf = (a: number) => 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
  // The same a from the snapshot's unit vectors, without trigonometry: a = |p - q|^2 / 4 (the haversine of the
  // angle is a quarter of the squared chord). It agrees with the formula above to ~1e-10 relative (less for
  // points metres apart: then to ~1e-22 absolute), so it sorts the clear cases, and the exact formula decides
  // every row within a 1e-6 margin of the radius or of the page's cut.
  const half = at.radiusKm / (2 * EARTH_RADIUS_KM);
  const aEdge = half >= Math.PI / 2 ? Infinity : Math.sin(half) ** 2;
  const inside = aEdge * (1 - MARGIN) - SLACK;
  const outside = aEdge * (1 + MARGIN) + SLACK;
  const qx = cosQ * Math.cos(at.lng * r);
  const qy = cosQ * Math.sin(at.lng * r);
  const qz = Math.sin(at.lat * r);

  const g = s.grid;
  const { keys, start, members, radius, cx, cy, cz, memberLat, memberLng, memberCosLat, memberX, memberY, memberZ } = g;
  const cells = keys.length;
  const rows = s.main.length + s.side.length;
  // Rows are kept by their index in the grid's members (the member columns are read in sequence), mapped to
  // positions for the page only.
  const kept = (scratchKept = scratchKept.length >= rows ? scratchKept : new Uint32Array(rows * 2));
  const hav = (scratchHav = scratchHav.length >= rows ? scratchHav : new Float64Array(rows * 2));
  const queue = new CellQueue(cells);
  const { cellCounts, memberState } = phaseAt(s, f.nowUs);
  let matched = 0;
  // The cells the box overlaps that can hold a row within the radius, by the nearest their rows can be:
  // counted ones queued as ~c (negative), the others as c.
  const colLo = columnOf(minLng);
  const colHi = columnOf(maxLng);
  for (let band = bandOf(minLat), lastBand = bandOf(maxLat); band <= lastBand; band++) {
    const lastKey = cellKey(band, colHi);
    for (let c = firstCellFrom(g, cellKey(band, colLo)); c < cells && keys[c] <= lastKey; c++) {
      if (g.maxLat[c] < minLat || g.minLat[c] > maxLat || g.maxLng[c] < minLng || g.minLng[c] > maxLng) continue;
      // Every row's chord lies within the cell's radius of the chord to its centre (the radius is padded for rounding).
      const dx = cx[c] - qx;
      const dy = cy[c] - qy;
      const dz = cz[c] - qz;
      const toCentre = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const near = toCentre > radius[c] ? toCentre - radius[c] : 0;
      const lowA = (near * near) / 4;
      if (lowA > outside) continue;
      const far = toCentre + radius[c];
      // A cell wholly inside the circle and the box is counted, not read, unless a filter other than status applies.
      if (
        !filtered &&
        (far * far) / 4 <= inside &&
        g.minLat[c] >= minLat &&
        g.maxLat[c] <= maxLat &&
        g.minLng[c] >= minLng &&
        g.maxLng[c] <= maxLng
      ) {
        const k = 3 * c;
        const count =
          (status & 1 ? cellCounts[k] : 0) +
          (status & 2 ? cellCounts[k + 1] : 0) +
          (status & 4 ? cellCounts[k + 2] : 0);
        if (count === 0) continue;
        matched += count;
        queue.push(~c, lowA);
      } else {
        queue.push(c, lowA);
      }
    }
  }
  // Only the first offset + limit in order are needed. Cells are read nearest first, and once the rows kept
  // number that many, a row is kept only if its a is at most the largest of the `wanted` smallest kept so far
  // (`bound`, widened as the page's cut below); cells beyond the bound are only counted (straddling ones) or
  // left (counted ones). The bound only tightens as rows come: it can keep a row too many, never drop one the
  // page needs.
  const wanted = page.offset + page.limit;
  const nearest = new SmallestK(wanted);
  let bound = Infinity;
  let n = 0;
  // A row kept: member index in `kept`, a in `hav`.
  const keep = (k: number, a: number): void => {
    kept[n] = k;
    hav[n++] = a;
    nearest.offer(a);
    if (nearest.full) bound = widened(nearest.top());
  };
  // A straddling cell row by row, as the SQL's WHERE: its rows within the radius counted, and kept when their a
  // is within the bound (unless only counted).
  const readStraddling = (c: number, countOnly: boolean): void => {
    for (let k = start[c], end = start[c + 1]; k < end; k++) {
      if ((memberState[k] & status) === 0) continue;
      const py = memberLat[k];
      const px = memberLng[k];
      if (py < minLat || py > maxLat || px < minLng || px > maxLng) continue;
      const i = members[k];
      if (filtered && (((types >> typeOf[i]) & 1) === 0 || updatedUs[i] < since)) continue;
      const ex = memberX[k] - qx;
      const ey = memberY[k] - qy;
      const ez = memberZ[k] - qz;
      const a = (ex * ex + ey * ey + ez * ez) / 4;
      if (a > outside || (a > inside && !(dOf(exactA(k)) <= at.radiusKm))) continue;
      matched++;
      if (!countOnly && a <= bound) keep(k, a);
    }
  };
  while (queue.size > 0 && queue.lowest() <= bound) {
    const c = queue.pop();
    if (c >= 0) {
      readStraddling(c, false);
      continue;
    }
    for (let k = start[~c], end = start[~c + 1]; k < end; k++) {
      if ((memberState[k] & status) === 0) continue;
      const ex = memberX[k] - qx;
      const ey = memberY[k] - qy;
      const ez = memberZ[k] - qz;
      const a = (ex * ex + ey * ey + ez * ez) / 4;
      if (a <= bound) keep(k, a);
    }
  }
  // The cells beyond the bound, in any order: straddling ones still count.
  for (let k = 0; k < queue.size; k++) if (queue.cells[k] >= 0) readStraddling(queue.cells[k], true);
  const want = Math.min(matched, wanted);
  if (want === 0) return { matched, positions: [], distancesKm: [] };
  // The page's cut: the a of the want-th nearest, a margin wider (so that rows whose distances round equal, or
  // whose a lies within the approximation's error, are all there to be ordered); then exact distances and
  // (distance, id) order for the rows within it. No more rows kept than the page wants: all of them. More: each
  // kept row is matched, so more were matched than `wanted`, the page wants `wanted`, and the cut is the bound.
  const pageCut = want >= n ? Infinity : bound;
  const nearD = (scratchNearD = scratchNearD.length >= n ? scratchNearD : new Float64Array(n * 2));
  const nearAt = (scratchNearAt = scratchNearAt.length >= n ? scratchNearAt : new Uint32Array(n * 2));
  let m = 0;
  for (let k = 0; k < n; k++) {
    if (hav[k] > pageCut) continue;
    nearAt[m] = kept[k];
    nearD[m++] = dOf(exactA(kept[k]));
  }
  // Ids are read only to break a tie (an entry read per row was a cache miss per row).
  sortByDistance(nearD, nearAt, m, (k) => entryAt(s, members[k]).id);
  const positions: number[] = [];
  const distancesKm: number[] = [];
  for (let k = page.offset, end = Math.min(m, page.offset + page.limit); k < end; k++) {
    positions.push(members[nearAt[k]]);
    distancesKm.push(nearD[k]);
  }
  return { matched, positions, distancesKm };
}

const widened = (a: number): number => a * (1 + MARGIN) + SLACK;

/** Scratch columns (synchronous, so one set serves every request), grown as needed. */
let scratchKept = new Uint32Array(0);
let scratchHav = new Float64Array(0);
let scratchNearD = new Float64Array(0);
let scratchNearAt = new Uint32Array(0);
