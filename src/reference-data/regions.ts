/**
 * The regions of the hazard grid: 0.25° cells over bounding boxes that hold every US state and
 * territory in us-atlas (CONUS, Alaska with the Aleutians west of 180°, Hawaii, Puerto Rico + USVI,
 * Guam + CNMI, American Samoa). 0.25° (~25 km) is about the resolution the catalogs support (tornado
 * and wildfire densities are smoothed over tens of km, hurricane footprints span hundreds); it keeps
 * the committed file near 2 MB [judgement]. Coverage is refined by a 0.05° land mask (FINE_PER_CELL).
 */
import type { RegionHeader } from '../domain/scoring/grid-format.js';

export const CELL_DEG = 0.25;
export const FINE_PER_CELL = 5;

export const REGIONS: readonly RegionHeader[] = [
  { name: 'conus', south: 24.0, west: -125.0, rows: 104, cols: 234 }, // 24–50°N, 125–66.5°W
  { name: 'alaska', south: 51.0, west: -180.0, rows: 82, cols: 201 }, // 51–71.5°N, 180–129.75°W
  { name: 'aleutians_west', south: 51.0, west: 172.0, rows: 9, cols: 32 }, // west of the antimeridian
  { name: 'hawaii', south: 18.75, west: -160.5, rows: 15, cols: 24 },
  { name: 'puerto_rico_usvi', south: 17.5, west: -68.0, rows: 5, cols: 14 },
  { name: 'guam_cnmi', south: 13.0, west: 144.5, rows: 31, cols: 7 },
  { name: 'american_samoa', south: -14.75, west: -171.25, rows: 15, cols: 13 },
];

/** A covered cell of the build: where it is and which county (index into the county table) it belongs to. */
export interface BuildCell {
  region: number;
  row: number;
  col: number;
  lat: number; // centre
  lng: number;
  county: number;
  stateFips: string;
}

export function cellCentre(r: RegionHeader, row: number, col: number): { lat: number; lng: number } {
  return { lat: r.south + (row + 0.5) * CELL_DEG, lng: r.west + (col + 0.5) * CELL_DEG };
}
