/**
 * The hurricane wind hazard curve at a point, as `catintel hazard curve` and GET /hazard/curve answer it:
 * annual exceedance rates of the peak 3-s gust (mph, open terrain, 10 m) at 40-200 mph by 10, and the
 * gust at standard return periods, from the stochastic catalog and the wind field the losses use.
 *
 * The catalog is built once per process (CATALOG_YEARS years from CATALOG_SEED, about two seconds), not the
 * 10,000 years of the validation (10 s of CPU and far more memory): an answer must come in seconds. Given
 * catintel's cache folder, it is built once for all processes and read back (io/catalog-file.ts). The
 * 100- to 500-year gusts are read from it directly; longer return periods come from the Weibull tail
 * (domain/hazard-curve.ts), and the answer says which.
 */
import { gustAtReturnPeriod, exceedanceRate, type ReturnPeriodGust } from './domain/hazard-curve.js';
import { cellOf } from './domain/footprint/grid.js';
import { SiteHazardIndex } from './domain/site-hazard.js';
import { landGrid } from './land-grid.js';
import { cachedCatalog } from './io/catalog-file.js';
import { buildHurricaneTrackSet } from './track-set.js';
import { siteOf } from './wind-validation.js';

export const CATALOG_YEARS = 1000;
export const CATALOG_SEED = 1;
export const GUST_LEVELS_MPH = [40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160, 170, 180, 190, 200] as const;
export const GUST_RETURN_PERIODS = [10, 25, 50, 100, 250, 500, 700, 1000] as const;

export interface WindCurve {
  storms_reaching_40_mph: number;
  levels: Array<{ gust_mph: number; annual_rate: number; return_period_years: number | null }>;
  return_periods: Array<{ return_period_years: number; gust_mph: number | null; method: ReturnPeriodGust['method'] }>;
  distance_inland_km: number | null;
}

let cached: { dataDir: string; index: SiteHazardIndex } | null = null;

/** The catalog indexed for site queries, once a process; read from (and stored in) `cacheDir` when given (io/catalog-file.ts). */
function catalogIndex(dataDir: string, cacheDir?: string): SiteHazardIndex {
  if (cached?.dataDir === dataDir) return cached.index;
  const options = { dataDir, years: CATALOG_YEARS, seed: CATALOG_SEED };
  const set = cacheDir ? cachedCatalog({ ...options, cacheDir }) : buildHurricaneTrackSet(options);
  cached = { dataDir, index: new SiteHazardIndex(set.tracks, 1 / set.years) };
  return cached.index;
}

/** Whether the wind model's grid (24-48°N, 106-66°W) holds the point. */
export function onWindGrid(lat: number, lng: number): boolean {
  return cellOf(lat, lng) !== null;
}

export function hurricaneWindCurve(dataDir: string, lat: number, lng: number, cacheDir?: string): WindCurve {
  const site = siteOf(landGrid(), lat, lng);
  const curve = catalogIndex(dataDir, cacheDir).curve(site);
  const round1 = (x: number) => Number(x.toFixed(1));
  return {
    storms_reaching_40_mph: curve.peaks.length,
    levels: GUST_LEVELS_MPH.map((g) => {
      const rate = exceedanceRate(curve, g);
      return { gust_mph: g, annual_rate: Number(rate.toPrecision(4)), return_period_years: rate > 0 ? Number((1 / rate).toPrecision(4)) : null };
    }),
    return_periods: GUST_RETURN_PERIODS.map((years) => {
      const r = gustAtReturnPeriod(curve, years);
      return { return_period_years: years, gust_mph: r.gustMph === null ? null : round1(r.gustMph), method: r.method };
    }),
    distance_inland_km: site.inlandKm >= 1e6 ? null : round1(site.inlandKm),
  };
}
