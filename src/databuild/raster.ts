/**
 * Scanline rasterisation of county polygons onto the fine coverage grid (CELL_DEG / FINE_PER_CELL).
 * A pixel belongs to the polygon whose even-odd interior contains the pixel centre; pixels holding a
 * polygon vertex are also claimed (islands smaller than a pixel would otherwise vanish), and a final
 * one-pixel dilation lets points just off a generalised 1:10M shoreline count as covered. Scanline fill
 * is O(edges + pixels), so the whole country takes well under a second where point-in-polygon per pixel
 * would take minutes.
 */
import type { Position } from 'geojson';
import type { RegionHeader } from '../domain/scoring/grid-format.js';
import { CELL_DEG, FINE_PER_CELL, REGIONS } from '../reference-data/regions.js';

const FINE_DEG = CELL_DEG / FINE_PER_CELL;

export interface FineRaster {
  rows: number;
  cols: number;
  /** County index per pixel, -1 where no county. */
  county: Int32Array;
}

export function emptyRasters(): FineRaster[] {
  return REGIONS.map((r) => {
    const rows = r.rows * FINE_PER_CELL;
    const cols = r.cols * FINE_PER_CELL;
    return { rows, cols, county: new Int32Array(rows * cols).fill(-1) };
  });
}

/** Burn one polygon (outer ring + holes, [lng, lat]) into every region it overlaps. */
export function burnPolygon(rasters: FineRaster[], rings: Position[][], county: number): void {
  let minX = Infinity,
    minY = Infinity,
    maxX = -Infinity,
    maxY = -Infinity;
  for (const ring of rings) {
    for (const [x, y] of ring) {
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
  }
  REGIONS.forEach((reg, i) => {
    if (maxX < reg.west || minX > reg.west + reg.cols * CELL_DEG) return;
    if (maxY < reg.south || minY > reg.south + reg.rows * CELL_DEG) return;
    fillRegion(rasters[i], reg, rings, county, minY, maxY);
  });
}

function fillRegion(
  r: FineRaster,
  reg: RegionHeader,
  rings: Position[][],
  county: number,
  minY: number,
  maxY: number,
): void {
  const row0 = Math.max(0, Math.floor((minY - reg.south) / FINE_DEG - 0.5));
  const row1 = Math.min(r.rows - 1, Math.ceil((maxY - reg.south) / FINE_DEG - 0.5));
  if (row1 < row0) return;
  const crossings: number[][] = [];
  for (let k = row0; k <= row1; k++) crossings.push([]);
  for (const ring of rings) {
    for (let j = 0; j + 1 < ring.length; j++) {
      const [x1, y1] = ring[j];
      const [x2, y2] = ring[j + 1];
      if (y1 === y2) continue;
      const lo = Math.min(y1, y2);
      const hi = Math.max(y1, y2);
      // Pixel-centre rows with lo <= yc < hi (half-open, so shared vertices count once).
      const a = Math.max(row0, Math.ceil((lo - reg.south) / FINE_DEG - 0.5));
      for (let row = a; row <= row1; row++) {
        const yc = reg.south + (row + 0.5) * FINE_DEG;
        if (yc >= hi) break;
        if (yc < lo) continue;
        crossings[row - row0].push(x1 + ((yc - y1) * (x2 - x1)) / (y2 - y1));
      }
    }
    for (const [x, y] of ring) setPixel(r, reg, y, x, county, false);
  }
  for (let k = 0; k < crossings.length; k++) {
    const xs = crossings[k].sort((p, q) => p - q);
    const base = (row0 + k) * r.cols;
    for (let m = 0; m + 1 < xs.length; m += 2) {
      const c0 = Math.max(0, Math.ceil((xs[m] - reg.west) / FINE_DEG - 0.5));
      const c1 = Math.min(r.cols - 1, Math.ceil((xs[m + 1] - reg.west) / FINE_DEG - 0.5) - 1);
      for (let c = c0; c <= c1; c++) r.county[base + c] = county;
    }
  }
}

function setPixel(
  r: FineRaster,
  reg: RegionHeader,
  lat: number,
  lng: number,
  county: number,
  overwrite: boolean,
): void {
  const row = Math.floor((lat - reg.south) / FINE_DEG);
  const col = Math.floor((lng - reg.west) / FINE_DEG);
  if (row < 0 || col < 0 || row >= r.rows || col >= r.cols) return;
  const i = row * r.cols + col;
  if (overwrite || r.county[i] < 0) r.county[i] = county;
}

/** Give every empty pixel next to a claimed one (8-neighbourhood) that neighbour's county, in a fixed scan order. */
export function dilate(r: FineRaster): void {
  const src = r.county.slice();
  for (let row = 0; row < r.rows; row++) {
    for (let col = 0; col < r.cols; col++) {
      const i = row * r.cols + col;
      if (src[i] >= 0) continue;
      let found = -1;
      for (let dr = -1; dr <= 1 && found < 0; dr++) {
        for (let dc = -1; dc <= 1 && found < 0; dc++) {
          const rr = row + dr;
          const cc = col + dc;
          if (rr < 0 || cc < 0 || rr >= r.rows || cc >= r.cols) continue;
          if (src[rr * r.cols + cc] >= 0) found = src[rr * r.cols + cc];
        }
      }
      if (found >= 0) r.county[i] = found;
    }
  }
}
