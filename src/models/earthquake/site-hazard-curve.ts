/**
 * The earthquake PGA hazard curve at a point, as `catintel hazard curve` and GET /hazard/curve answer it:
 * annual exceedance rates at the 18 NSHM PGA levels on Vs30 760 m/s, PGA at 2 % and 10 % in 50 years and
 * at standard return periods. The source model loads once per process (about 3 s); a site then takes
 * 10-50 ms (domain/hazard-curve.ts).
 */
import { groundMotionAtRate, HazardCalculator, RATE_10PCT_IN_50, RATE_2PCT_IN_50, type HazardCurve } from './domain/hazard-curve.js';
import { REFERENCE_VS30 } from './domain/ground-motion.js';
import { loadEarthquakeSources } from './io/load-sources.js';

export const PGA_RETURN_PERIODS = [100, 250, 475, 1000, 2475] as const;
/** The contiguous US, where the source model has sources on every side of a site. */
export const CONUS_BOX = { south: 24, north: 50, west: -125, east: -66 } as const;

export interface PgaCurve {
  vs30_m_s: number;
  levels: Array<{ pga_g: number; annual_rate: number; return_period_years: number | null }>;
  pga_2pct_in_50_years_g: number | null;
  pga_10pct_in_50_years_g: number | null;
  return_periods: Array<{ return_period_years: number; pga_g: number | null }>;
}

let cached: { dataDir: string; calculator: HazardCalculator } | null = null;

function calculator(dataDir: string): HazardCalculator {
  if (cached?.dataDir === dataDir) return cached.calculator;
  cached = { dataDir, calculator: new HazardCalculator(loadEarthquakeSources(dataDir)) };
  return cached.calculator;
}

export function inConus(lat: number, lng: number): boolean {
  return lat >= CONUS_BOX.south && lat <= CONUS_BOX.north && lng >= CONUS_BOX.west && lng <= CONUS_BOX.east;
}

/** PGA (g, 4 significant figures) at an annual rate; null below the curve's lowest level (0.0025 g). */
function pgaAt(curve: HazardCurve, rate: number): number | null {
  const g = groundMotionAtRate(curve, rate);
  return Number.isFinite(g) ? Number(g.toPrecision(4)) : null;
}

export function earthquakePgaCurve(dataDir: string, lat: number, lng: number): PgaCurve {
  const curve = calculator(dataDir).curve(lat, lng, REFERENCE_VS30);
  return {
    vs30_m_s: REFERENCE_VS30,
    levels: curve.levelsG.map((x, i) => {
      const rate = curve.rates[i];
      return { pga_g: x, annual_rate: Number(rate.toPrecision(4)), return_period_years: rate > 0 ? Number((1 / rate).toPrecision(4)) : null };
    }),
    pga_2pct_in_50_years_g: pgaAt(curve, RATE_2PCT_IN_50),
    pga_10pct_in_50_years_g: pgaAt(curve, RATE_10PCT_IN_50),
    return_periods: PGA_RETURN_PERIODS.map((years) => ({ return_period_years: years, pga_g: pgaAt(curve, 1 / years) })),
  };
}
