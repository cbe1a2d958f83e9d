/**
 * GET /hazard/curve and `catintel hazard curve`: the hazard curve of catintel's own models at a point
 * (docs/endpoints.md, docs/hurricane-model.md#hazard-curves, docs/earthquake-model.md#hazard-curves).
 * hurricane_wind: annual exceedance rates of the peak 3-s gust from the stochastic catalog and wind field;
 * earthquake: of PGA on Vs30 760 m/s rock from the rupture set and ground-motion models. Free tier.
 * Reads the shared public data directory (as `data build` does); the models load once per process.
 * Points outside US states and territories are 422; so are points outside the model's domain (the
 * hurricane wind grid, the contiguous US for earthquakes), with the reason: a curve of zeros there would
 * read as "no hazard", which the model does not know.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadBaselineGrid } from '../reference-data/load-baseline.js';
import { DATA_VINTAGE } from '../reference-data/inputs.js';
import { cellAt } from '../domain/scoring/grid.js';
import { CatintelError, invalidParameter } from '../errors.js';
import { catintelCacheDir } from '../lib/cache-dir.js';
import { packageRoot } from '../lib/package-root.js';
import { CONUS_BOX, earthquakePgaCurve, inConus } from '../models/earthquake/site-hazard-curve.js';
import { CATALOG_SEED, CATALOG_YEARS, hurricaneWindCurve, onWindGrid } from '../models/hurricane/site-hazard-curve.js';
import { num, str } from './params.js';
import { defineHandler } from './types.js';

export const CURVE_PERILS = ['hurricane_wind', 'earthquake'] as const;
export type CurvePeril = (typeof CURVE_PERILS)[number];
const CURVE_PERIL_ALIASES: Readonly<Record<string, CurvePeril>> = { hurricane: 'hurricane_wind' };
export const EARTHQUAKE_IMTS = ['pga'] as const;

export interface HazardCurveInput {
  lat: number;
  lng: number;
  peril: CurvePeril;
  imt: 'pga' | 'gust';
}

export interface CurvePoint {
  intensity: number;
  annual_rate: number;
  /** 1 / annual_rate; null where the rate is 0. */
  return_period_years: number | null;
}

export interface ReturnPeriodValue {
  return_period_years: number;
  /** null where the curve does not reach the rate (below its lowest level, or too few storms to fit). */
  intensity: number | null;
  /** hurricane_wind: read from the catalog (empirical) or from the Weibull tail fitted to it. */
  method?: string;
}

export interface HazardCurveBody {
  lat: number;
  lng: number;
  peril: CurvePeril;
  imt: 'peak_gust_3s' | 'pga';
  unit: 'mph' | 'g';
  site: Record<string, unknown>;
  curve: CurvePoint[];
  return_periods: ReturnPeriodValue[];
  pga_2pct_in_50_years_g?: number | null;
  pga_10pct_in_50_years_g?: number | null;
  event_set: Record<string, unknown>;
  ground_motion_models?: string[];
  notes: string[];
  method: string;
  model_version: string;
  data_version: string;
  source: string;
  source_url: string;
  ingested_at: string;
}

export const HURRICANE_WIND_MODEL_VERSION = 'catintel-hurricane-wind-1';
export const EARTHQUAKE_HAZARD_MODEL_VERSION = 'catintel-earthquake-hazard-1';

export function parseHazardCurve(raw: Record<string, unknown>): HazardCurveInput {
  const lat = num(raw, 'lat', { min: -90, max: 90 });
  const lng = num(raw, 'lng', { min: -180, max: 180 });
  const p = str(raw, 'peril');
  if (p === undefined) throw invalidParameter('peril', `peril is required: one of ${CURVE_PERILS.join(', ')}`);
  const peril = Object.hasOwn(CURVE_PERIL_ALIASES, p) ? CURVE_PERIL_ALIASES[p] : p;
  if (!(CURVE_PERILS as readonly string[]).includes(peril)) {
    throw invalidParameter(
      'peril',
      `"${p}" is not one of ${CURVE_PERILS.join(', ')} (hazard curves exist for the perils catintel has its own model of)`,
    );
  }
  const imt = str(raw, 'imt');
  if (imt !== undefined && !(EARTHQUAKE_IMTS as readonly string[]).includes(imt)) {
    throw invalidParameter(
      'imt',
      `"${imt}" is not one of ${EARTHQUAKE_IMTS.join(', ')} (the earthquake model computes PGA only)`,
    );
  }
  if (imt !== undefined && peril === 'hurricane_wind') {
    throw new CatintelError(
      'validation_failed',
      `imt: "${imt}" is an earthquake measure; hurricane_wind curves are of the peak 3-s gust, so leave imt out`,
      {
        errors: [{ field: 'imt', message: `"${imt}" does not apply to hurricane_wind; leave it out` }],
      },
    );
  }
  return { lat, lng, peril: peril as CurvePeril, imt: peril === 'earthquake' ? 'pga' : 'gust' };
}

function refuse(reason: string): CatintelError {
  return new CatintelError('validation_failed', reason, {
    errors: [
      { field: 'lat', message: reason },
      { field: 'lng', message: reason },
    ],
  });
}

function curveOfHurricane(dataDir: string, lat: number, lng: number, cacheDir: string): HazardCurveBody {
  const w = hurricaneWindCurve(dataDir, lat, lng, cacheDir);
  const notes = [
    `${CATALOG_YEARS.toLocaleString('en-US')} simulated years (seed ${CATALOG_SEED}): return periods beyond ${CATALOG_YEARS / 2} years come from a Weibull tail fitted to the storm peaks, not from the catalog directly`,
  ];
  if (w.storms_reaching_40_mph < 5)
    notes.push(
      `only ${w.storms_reaching_40_mph} simulated storm(s) bring a 40 mph gust here in ${CATALOG_YEARS.toLocaleString('en-US')} years: hurricane wind is negligible at this point`,
    );
  return {
    lat,
    lng,
    peril: 'hurricane_wind',
    imt: 'peak_gust_3s',
    unit: 'mph',
    site: { terrain: 'open (z0 = 0.03 m), 10 m above ground', distance_inland_km: w.distance_inland_km },
    curve: w.levels.map((l) => ({
      intensity: l.gust_mph,
      annual_rate: l.annual_rate,
      return_period_years: l.return_period_years,
    })),
    return_periods: w.return_periods.map((r) => ({
      return_period_years: r.return_period_years,
      intensity: r.gust_mph,
      method: r.method,
    })),
    event_set: {
      kind: 'stochastic Atlantic/Gulf track catalog (random-walk perturbation of HURDAT2 1900-2024)',
      simulated_years: CATALOG_YEARS,
      seed: CATALOG_SEED,
      storms_reaching_40_mph: w.storms_reaching_40_mph,
    },
    notes,
    method:
      'annual exceedance rate of the peak 3-s gust = Σ over catalog storms of 1/years × [peak gust > level]; Holland wind field with translation asymmetry, gradient-to-surface reduction, gust factor and the sea-to-land roughness change (docs/hurricane-model.md)',
    model_version: HURRICANE_WIND_MODEL_VERSION,
    data_version: 'hurdat2-1851-2024-040425',
    source: 'NHC HURDAT2 Atlantic best tracks (release 2025-04-04)',
    source_url: 'https://www.nhc.noaa.gov/data/hurdat/hurdat2-1851-2024-040425.txt',
    ingested_at: '2025-04-04T00:00:00Z',
  };
}

function curveOfEarthquake(dataDir: string, lat: number, lng: number): HazardCurveBody {
  const e = earthquakePgaCurve(dataDir, lat, lng);
  const notes: string[] = [];
  if (e.pga_2pct_in_50_years_g === null)
    notes.push('the PGA at 2 % in 50 years is below 0.0025 g, the lowest level of the curve');
  return {
    lat,
    lng,
    peril: 'earthquake',
    imt: 'pga',
    unit: 'g',
    site: { vs30_m_s: e.vs30_m_s, site_class: 'B/C boundary (reference rock)' },
    curve: e.levels.map((l) => ({
      intensity: l.pga_g,
      annual_rate: l.annual_rate,
      return_period_years: l.return_period_years,
    })),
    return_periods: e.return_periods.map((r) => ({ return_period_years: r.return_period_years, intensity: r.pga_g })),
    pga_2pct_in_50_years_g: e.pga_2pct_in_50_years_g,
    pga_10pct_in_50_years_g: e.pga_10pct_in_50_years_g,
    event_set: {
      kind: 'rupture set with annual rates: NSHM 2023 fault sections and slip rates, gridded seismicity (NSHM 2023 spatial pdfs, catalog a/b values), Cascadia interface, New Madrid and Charleston characteristic sources',
    },
    ground_motion_models: [
      'active crust: Boore, Stewart, Seyhan & Atkinson 2014 (BSSA14)',
      'stable crust: Atkinson & Boore 2006 and Toro et al. 1997, equal weights',
      'Cascadia interface: Atkinson & Macias 2009',
    ],
    notes,
    method:
      'λ(PGA > x) = Σ over ruptures of annual rate × P(ln PGA > ln x | M, distance), lognormal ground motion truncated at 3σ; NSHM distance cutoffs (docs/earthquake-model.md)',
    model_version: EARTHQUAKE_HAZARD_MODEL_VERSION,
    data_version: 'nshm-conus-2023',
    source: 'USGS National Seismic Hazard Model 2023 (CONUS) source data',
    source_url: 'https://code.usgs.gov/ghsc/nshmp/nshms/nshm-conus',
    ingested_at: DATA_VINTAGE,
  };
}

export const hazardCurve = defineHandler<HazardCurveInput, HazardCurveBody>({
  name: 'hazard.curve',
  summary:
    "Hazard curve at a point from catintel's own models: annual exceedance rates at standard intensities and intensities at standard return periods",
  http: { method: 'GET', path: '/hazard/curve', access: 'free' },
  cli: {
    command: ['hazard', 'curve'],
    options: [
      { flags: '--lat <lat>', description: 'latitude, WGS84 degrees' },
      { flags: '--lng <lng>', description: 'longitude, WGS84 degrees' },
      {
        flags: '--peril <peril>',
        description: `${CURVE_PERILS.join(' or ')} (hurricane is accepted for hurricane_wind)`,
      },
      { flags: '--imt <imt>', description: 'earthquake intensity measure: pga (the default and only one)' },
    ],
    examples: [
      'catintel hazard curve --lat 25.77 --lng -80.19 --peril hurricane_wind',
      'catintel hazard curve --lat 34.05 --lng -118.24 --peril earthquake --imt pga --json',
    ],
  },
  storeless: true,
  parse: (raw) => parseHazardCurve(raw),
  async run(ctx, input) {
    const { lat, lng, peril } = input;
    if (cellAt(loadBaselineGrid(), lat, lng) < 0) {
      throw refuse(
        `lat=${lat}, lng=${lng} is outside the covered area (US states, DC and territories); hazard curves exist only for points on or near US land`,
      );
    }
    // The shared public data directory, as `data build` finds it; not a request parameter (a caller must not point the server at its files).
    const dataDir = path.resolve(
      ctx.config.env?.CATINTEL_SHARED_DATA || path.join(packageRoot(), '..', 'shared', 'data'),
    );
    if (!fs.existsSync(dataDir))
      throw new CatintelError(
        'unavailable',
        "the model's source data (the shared public data directory, CATINTEL_SHARED_DATA) is not installed here",
      );
    if (peril === 'hurricane_wind') {
      if (!onWindGrid(lat, lng))
        throw refuse(
          `lat=${lat}, lng=${lng} is outside the hurricane wind model's grid (24-48°N, 106-66°W: the contiguous US reached by Atlantic and Gulf hurricanes); Hawaii, Alaska, the territories and the West Coast are not modelled`,
        );
      return { body: curveOfHurricane(dataDir, lat, lng, catintelCacheDir(ctx.config.env)) };
    }
    if (!inConus(lat, lng))
      throw refuse(
        `lat=${lat}, lng=${lng} is outside the earthquake model's sources (the contiguous US, ${CONUS_BOX.south}-${CONUS_BOX.north}°N, ${-CONUS_BOX.east}-${-CONUS_BOX.west}°W); Alaska, Hawaii and the territories are not modelled`,
      );
    return { body: curveOfEarthquake(dataDir, lat, lng) };
  },
});
