/**
 * The wind grid's land mask and distance inland, from the US Census cartographic boundaries packaged by
 * us-atlas (nation-10m, 1:10M generalisation) and the sea coastline the storm-surge taper uses
 * (src/reference-data/coast.ts: the country's outline without land borders and Great Lakes shores, here with
 * points every 0.5 km along it).
 * A cell is land when its centre is inside the nation polygon, or when it touches a land cell (one-cell
 * dilation, as the hazard grid does, so points on a generalised shoreline or on a barrier island thinner
 * than a cell still find a footprint). Built once per process (about a second) and memoized.
 */
import { createRequire } from 'node:module';
import Flatbush from 'flatbush';
import type { Position } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { denseCoastPoints } from '../../reference-data/coast.js';
import { GRID_COLS, GRID_DEG, GRID_ROWS, GRID_SOUTH, GRID_WEST, cellCentre, type LandGrid } from './domain/footprint/grid.js';

/** Beyond this (km) the coast no longer changes the gust (e^{−10/2} < 1 %), so we stop searching. */
const COAST_SEARCH_KM = 10;
const KM_PER_DEG = 111.195;
/** Coast points every 0.005° (about 0.5 km), so the distance inland is good to a few hundred metres. */
const COAST_POINT_STEP_DEG = 0.005;

let cached: LandGrid | null = null;

export function landGrid(): LandGrid {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const topo = require('us-atlas/nation-10m.json') as Topology<{ nation: GeometryCollection }>;
  const nation = feature(topo, topo.objects.nation);
  const inside = new Uint8Array(GRID_ROWS * GRID_COLS);
  for (const f of nation.features) {
    const g = f.geometry;
    const polys = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    for (const rings of polys) burn(inside, rings);
  }
  const land = new Uint8Array(inside.length);
  for (let r = 0; r < GRID_ROWS; r++) {
    for (let c = 0; c < GRID_COLS; c++) {
      if (!inside[r * GRID_COLS + c]) continue;
      for (let dr = -1; dr <= 1; dr++) {
        for (let dc = -1; dc <= 1; dc++) {
          const rr = r + dr;
          const cc = c + dc;
          if (rr >= 0 && rr < GRID_ROWS && cc >= 0 && cc < GRID_COLS) land[rr * GRID_COLS + cc] = 1;
        }
      }
    }
  }
  const inlandKm = distanceInland(land, inside);
  cached = { land, inlandKm };
  return cached;
}

/** Even-odd scanline fill of one polygon's rings at the cell centres. */
function burn(out: Uint8Array, rings: Position[][]): void {
  const rows: number[][] = [];
  for (let k = 0; k < GRID_ROWS; k++) rows.push([]);
  for (const ring of rings) {
    for (let j = 0; j + 1 < ring.length; j++) {
      const [x1, y1] = ring[j];
      const [x2, y2] = ring[j + 1];
      if (y1 === y2) continue;
      const lo = Math.min(y1, y2);
      const hi = Math.max(y1, y2);
      const r0 = Math.max(0, Math.ceil((lo - GRID_SOUTH) / GRID_DEG - 0.5));
      for (let r = r0; r < GRID_ROWS; r++) {
        const yc = GRID_SOUTH + (r + 0.5) * GRID_DEG;
        if (yc >= hi) break;
        rows[r].push(x1 + ((yc - y1) * (x2 - x1)) / (y2 - y1));
      }
    }
  }
  rows.forEach((xs, r) => {
    if (xs.length < 2) return;
    xs.sort((a, b) => a - b);
    for (let m = 0; m + 1 < xs.length; m += 2) {
      const c0 = Math.max(0, Math.ceil((xs[m] - GRID_WEST) / GRID_DEG - 0.5));
      const c1 = Math.min(GRID_COLS - 1, Math.ceil((xs[m + 1] - GRID_WEST) / GRID_DEG - 0.5) - 1);
      for (let c = c0; c <= c1; c++) out[r * GRID_COLS + c] ^= 1;
    }
  });
}

/** Distance from each land cell's centre to the nearest sea-coast point (Infinity beyond the search radius). */
function distanceInland(land: Uint8Array, inside: Uint8Array): Float32Array {
  const vertices = denseCoastPoints(COAST_POINT_STEP_DEG).filter(([lng, lat]) => lat >= GRID_SOUTH - 1 && lat <= GRID_SOUTH + GRID_ROWS * GRID_DEG + 1 && lng >= GRID_WEST - 1 && lng <= GRID_WEST + GRID_COLS * GRID_DEG + 1);
  const index = new Flatbush(Math.max(1, vertices.length));
  for (const [lng, lat] of vertices) index.add(lng, lat, lng, lat);
  if (vertices.length === 0) index.add(0, 0, 0, 0);
  index.finish();
  const out = new Float32Array(land.length).fill(Infinity);
  for (let r = 0; r < GRID_ROWS; r++) {
    for (let c = 0; c < GRID_COLS; c++) {
      const k = r * GRID_COLS + c;
      if (!land[k]) continue;
      const { lat, lng } = cellCentre(r, c);
      const cos = Math.cos((lat * Math.PI) / 180);
      const dLat = COAST_SEARCH_KM / KM_PER_DEG;
      const dLng = dLat / cos;
      let best = Infinity;
      for (const i of index.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat)) {
        const [vx, vy] = vertices[i];
        const d = Math.hypot((vx - lng) * cos, vy - lat) * KM_PER_DEG;
        if (d < best) best = d;
      }
      // A dilated cell whose centre is water sits on the shoreline when the coast is near; otherwise it
      // is across a land border or a lake shore, where the wind comes over land.
      out[k] = inside[k] ? best : best <= COAST_SEARCH_KM ? 0 : Infinity;
    }
  }
  return out;
}
