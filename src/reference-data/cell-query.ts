/**
 * "Which covered cells lie within r km of this point?" over the build grid: a row/column window per
 * region, then an equirectangular distance (error < 0.5 % within 500 km at US latitudes, far below the
 * 25 km cell size).
 */
import { NO_CELL } from '../domain/scoring/grid-format.js';
import { EARTH_RADIUS_KM } from '../lib/geo.js';
import { CELL_DEG, REGIONS, cellCentre } from './regions.js';

export const KM_PER_DEG = (Math.PI / 180) * EARTH_RADIUS_KM;

export type CellVisitor = (cell: number, distanceKm: number) => void;

export class CellQuery {
  constructor(private readonly index: Uint16Array[]) {}

  within(lat: number, lng: number, radiusKm: number, visit: CellVisitor): void {
    const dLat = radiusKm / KM_PER_DEG;
    const cosLat = Math.max(0.05, Math.cos((lat * Math.PI) / 180));
    const dLng = dLat / cosLat;
    for (let ri = 0; ri < REGIONS.length; ri++) {
      const reg = REGIONS[ri];
      const row0 = Math.max(0, Math.floor((lat - dLat - reg.south) / CELL_DEG));
      const row1 = Math.min(reg.rows - 1, Math.floor((lat + dLat - reg.south) / CELL_DEG));
      const col0 = Math.max(0, Math.floor((lng - dLng - reg.west) / CELL_DEG));
      const col1 = Math.min(reg.cols - 1, Math.floor((lng + dLng - reg.west) / CELL_DEG));
      if (row1 < row0 || col1 < col0) continue;
      const idx = this.index[ri];
      for (let row = row0; row <= row1; row++) {
        for (let col = col0; col <= col1; col++) {
          const cell = idx[row * reg.cols + col];
          if (cell === NO_CELL) continue;
          const c = cellCentre(reg, row, col);
          const mLat = ((c.lat + lat) / 2) * (Math.PI / 180);
          const dx = (c.lng - lng) * Math.cos(mLat) * KM_PER_DEG;
          const dy = (c.lat - lat) * KM_PER_DEG;
          const d = Math.sqrt(dx * dx + dy * dy);
          if (d <= radiusKm) visit(cell, d);
        }
      }
    }
  }
}

/** Equirectangular distance in km between two nearby points. */
export function flatDistanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const mLat = ((lat1 + lat2) / 2) * (Math.PI / 180);
  const dx = (lng2 - lng1) * Math.cos(mLat) * KM_PER_DEG;
  const dy = (lat2 - lat1) * KM_PER_DEG;
  return Math.sqrt(dx * dx + dy * dy);
}
