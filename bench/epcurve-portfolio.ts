/**
 * A seeded synthetic portfolio for the EP-curve bench and tests: locations spread over the populated US
 * (rejection-sampled inside the hazard baseline's coverage, denser near a handful of metro areas), with OED
 * occupancy and construction codes and TIVs drawn from fixed lists.
 */
import { cellAt, type HazardGrid } from '../src/domain/scoring/grid.js';
import { mulberry32 } from '../src/lib/random.js';
import type { PortfolioLocation } from '../src/portfolios/read.js';

const METROS: [number, number][] = [
  [25.77, -80.19],
  [29.76, -95.37],
  [27.95, -82.46],
  [30.33, -81.66],
  [29.95, -90.07],
  [32.78, -79.93],
  [34.05, -118.24],
  [37.77, -122.42],
  [47.61, -122.33],
  [40.71, -74.01],
  [41.88, -87.63],
  [35.47, -97.52],
  [39.74, -104.99],
  [33.45, -112.07],
  [36.16, -86.78],
  [42.36, -71.06],
];
const OCCUPANCY = [1050, 1051, 1052, 1100, 1104, 1150];
const CONSTRUCTION = [5050, 5051, 5100, 5105, 5150, 5200, 5350, 5000];
const PERILS = [
  'hurricane_wind',
  'storm_surge',
  'earthquake',
  'tornado',
  'wildfire',
  'riverine_flood',
  'winter_storm',
  'extreme_heat',
  'drought',
];

export function syntheticPortfolio(grid: HazardGrid, n: number, seed: number): PortfolioLocation[] {
  const rand = mulberry32(seed);
  const out: PortfolioLocation[] = [];
  while (out.length < n) {
    let lat: number;
    let lng: number;
    if (rand() < 0.6) {
      const [mlat, mlng] = METROS[Math.floor(rand() * METROS.length)];
      lat = mlat + (rand() - 0.5) * 1.5;
      lng = mlng + (rand() - 0.5) * 1.5;
    } else {
      lat = 25 + rand() * 24;
      lng = -124 + rand() * 57;
    }
    if (cellAt(grid, lat, lng) < 0) continue;
    const building = Math.round(100_000 + rand() * 900_000);
    out.push({
      locNumber: `L${out.length + 1}`,
      lat: Math.round(lat * 1e5) / 1e5,
      lng: Math.round(lng * 1e5) / 1e5,
      occupancyCode: OCCUPANCY[Math.floor(rand() * OCCUPANCY.length)],
      constructionCode: CONSTRUCTION[Math.floor(rand() * CONSTRUCTION.length)],
      perils: PERILS,
      perilsCovered: 'AA1',
      tiv: { building, contents: Math.round(building * 0.4), bi: Math.round(building * 0.1), other: 0 },
      currency: 'USD',
    });
  }
  return out;
}
