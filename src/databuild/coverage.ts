/**
 * Coverage and the county of every grid cell, from the US Census cartographic county boundaries as
 * packaged by us-atlas (counties-10m: 1:10M generalisation, all states, DC and territories). A 0.25°
 * cell is covered when any of its 0.05° pixels is (after the one-pixel dilation of raster.ts), and
 * belongs to the county holding most of its pixels (ties to the lower FIPS).
 */
import type { CountyTable } from '../reference-data/counties.js';
import { NO_CELL, maskBytesPerRow } from '../domain/scoring/grid-format.js';
import { burnPolygon, dilate, emptyRasters } from './raster.js';
import { FINE_PER_CELL, REGIONS, cellCentre, type BuildCell } from '../reference-data/regions.js';

export interface Coverage {
  counties: CountyTable;
  cells: BuildCell[];
  index: Uint16Array[]; // per region, rows x cols
  mask: Uint8Array[]; // per region, fine bitmask
}

export function buildCoverage(counties: CountyTable): Coverage {
  const rasters = emptyRasters();
  counties.polygons.forEach((polys, k) => {
    for (const rings of polys) burnPolygon(rasters, rings, k);
  });
  for (const r of rasters) dilate(r);

  const cells: BuildCell[] = [];
  const index: Uint16Array[] = [];
  const mask: Uint8Array[] = [];
  REGIONS.forEach((reg, ri) => {
    const r = rasters[ri];
    const idx = new Uint16Array(reg.rows * reg.cols).fill(NO_CELL);
    const bpr = maskBytesPerRow(r.cols);
    const m = new Uint8Array(bpr * r.rows);
    for (let fr = 0; fr < r.rows; fr++) {
      for (let fc = 0; fc < r.cols; fc++) if (r.county[fr * r.cols + fc] >= 0) m[fr * bpr + (fc >> 3)] |= 1 << (fc & 7);
    }
    for (let row = 0; row < reg.rows; row++) {
      for (let col = 0; col < reg.cols; col++) {
        const county = modalCounty(r.county, r.cols, row, col);
        if (county < 0) continue;
        if (cells.length >= NO_CELL) throw new Error('too many covered cells for a Uint16 index');
        idx[row * reg.cols + col] = cells.length;
        const { lat, lng } = cellCentre(reg, row, col);
        cells.push({ region: ri, row, col, lat, lng, county, stateFips: counties.fips[county].slice(0, 2) });
      }
    }
    index.push(idx);
    mask.push(m);
  });
  return { counties, cells, index, mask };
}

function modalCounty(px: Int32Array, cols: number, row: number, col: number): number {
  const counts = new Map<number, number>();
  for (let dr = 0; dr < FINE_PER_CELL; dr++) {
    for (let dc = 0; dc < FINE_PER_CELL; dc++) {
      const c = px[(row * FINE_PER_CELL + dr) * cols + col * FINE_PER_CELL + dc];
      if (c >= 0) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
  }
  let best = -1;
  let bestN = 0;
  for (const [c, n] of counts) if (n > bestN || (n === bestN && c < best)) [best, bestN] = [c, n];
  return best;
}
