/**
 * Sub-state terms for the four perils whose level comes from the FEMA NRI state table (riverine flood,
 * extreme heat, drought, winter storm; nri-perils.ts). The state value stays the level; a per-cell factor
 * F redistributes it inside the state, normalised so that the population-weighted mean of F over the
 * state's cells is 1 (the state's people see, on average, the state's NRI value). docs/scoring.md §9 has
 * the terms, their coefficients and citations:
 *  - riverine flood: the density of NWPS forecast points with defined flood categories near the cell
 *    (Gaussian σ = 25 km; moderate and major categories weigh more), plus a small background, normalised
 *    within the state and free to fall to 1/50 of its level far from any such river; plus a
 *    tropical-cyclone rain term from HURDAT2 storms at tropical strength passing within 200 km, which is
 *    not normalised away, so a state's flood level rises with its tropical rain (checked against NFIP
 *    claims per state). Tide gauges are not rivers (isTidalGauge).
 *  - extreme heat (loss half): the latitude gradient of NRI's heat-wave loss rate measured across the
 *    CONUS states, and an urban heat island from county population (Oke 1973) priced with the
 *    heat-wave mortality slope of Anderson & Bell 2011.
 *  - winter storm: the latitude gradients of NRI's winter-weather event count and loss rate measured
 *    across the CONUS states.
 *  - drought: nothing in the shared data resolves it below state level; it stays a state value.
 */
import { parse } from 'csv-parse/sync';
import type { CellQuery } from '../reference-data/cell-query.js';
import type { Storm } from '../reference-data/hurdat2.js';
import { forEachHourlyFix } from './hurricane.js';
import { nriNumber, type NriState } from '../reference-data/nri.js';
import { leastSquares } from '../lib/stats.js';
import type { BuildCell } from '../reference-data/regions.js';
import type { PopulationCentre } from '../reference-data/census.js';

/** Kernel of the gauge density: one cell (σ = 25 km), cut at 3σ [judgement]. */
export const GAUGE_SIGMA_KM = 25;
/**
 * Weight of an NWPS gauge: 1 for a defined flood stage, +0.5 each for a defined moderate and major stage
 * (the NWS defines those where damaging floods have been seen and mapped), +1 where the NWS issues river
 * forecasts (routinely or as needed: a river large and damaging enough to forecast, not an observed-only
 * urban creek) [judgement].
 */
export const GAUGE_WEIGHT = { flood: 1, moderate: 0.5, major: 0.5, forecast: 1 } as const;
/** Distance from a tropical cyclone's centre inside which its rain counts (Lonfat et al. 2004 radial profiles) [judgement]. */
export const TC_RAIN_RADIUS_KM = 200;
/**
 * Only positions over land count: the centre within TC_LAND_KM of a covered cell's centre (a covered cell
 * holds some land; 20 km is within about one cell of the shore) [judgement]. Storms that stay offshore
 * rain mostly on the sea.
 */
export const TC_LAND_KM = 20;
/** Record of the TC rain term: the reconnaissance era, complete for tropical storms near the US [judgement]. */
export const TC_FIRST_YEAR = 1950;
export const TC_LAST_YEAR = 2024;
/** Statuses of tropical strength (≥ 34 kt): tropical storm, hurricane, subtropical storm (HURDAT2 format). */
const TC_STATUSES = new Set(['TS', 'HU', 'SS']);
/**
 * The gauge term saturates: e = 1 − exp(−G / G½), "a river with flood categories runs near here", so a
 * city's dense network of urban-creek gauges does not outweigh a big-river town's one or two forecast
 * points. G½ = the CONUS mean density (measured, params riverine_flood.gauge_half) [judgement].
 * A place with no such river keeps FLOOD_BACKGROUND (pluvial and small-stream flooding) against
 * 1 + FLOOD_BACKGROUND beside one [judgement: a place 75 km from the nearest river the NWS gives flood
 * categories to floods about fifty times less often per building than a town on one. For scale: FEMA
 * reports that a little over 20 % of NFIP claims come from outside the mapped high-risk (1 %-annual-chance)
 * flood zones, which hold a small share of the insured buildings].
 */
export const FLOOD_BACKGROUND = 0.02;
/**
 * The river term may take a place down to 1/50 of its state's level (the other NRI-level perils keep
 * 1/FACTOR_CAP): far from any gauged river there is little riverine flooding whatever the state
 * [judgement; Death Valley against California's level].
 */
export const FLOOD_FACTOR_FLOOR = 1 / 50;

export function gaugeExposure(density: number, half: number): number {
  return 1 - Math.exp(-density / half);
}

/**
 * One tropical storm a year within 200 km adds the state's level once more (F = river factor + gain·rate)
 * [judgement, docs/scoring.md §9]. Applied after the within-state normalisation: the big flood losses of
 * the NFIP record are tropical-rain floods (Allison, Floyd, Katrina, Harvey), which NRI's per-event county
 * counts weigh like any other flood. Added, not multiplied: tropical rain floods streets and small streams
 * whether or not a gauged river runs by (the 2000 no-name storm in west Miami-Dade, Allison's bayous), and
 * with the river factor's population-weighted mean of 1 the state's mean factor is exactly 1 + gain·(its
 * mean rate), the state level validate-scores checks against NFIP.
 */
export const TC_RAIN_GAIN = 1;
/** Oke (1973) North American cities: maximum urban-rural difference ΔT = 2.01·log10(P) − 4.06 °C. */
export const OKE_UHI = { a: 2.01, b: -4.06 } as const;
/** Share of the nocturnal maximum UHI that a heat wave's daily mean carries [judgement]. */
export const UHI_DAILY_SHARE = 0.5;
/** Anderson & Bell (2011, EHP 119:210): heat-wave mortality +2.49 % per 1 °F of heat-wave intensity. */
export const HEAT_MORTALITY_PER_F = 0.0249;
/** Normalised factors are kept within [1/4, 4] of the state value [judgement: no term here is precise enough for more]. */
export const FACTOR_CAP = 4;

export interface FloodGauge {
  lid: string;
  lat: number;
  lng: number;
  weight: number;
}

const defined = (v: string | undefined): boolean =>
  v !== undefined && v.trim() !== '' && Number(v) !== -9999 && Number.isFinite(Number(v));

/**
 * A gauge that measures the tide, not a river: SHEF physical element HM (height of tide, NWS SHEF Code
 * Manual, Table 1), a stage given against a tidal datum (MLLW, MHHW in the NWPS location name), or a tide
 * gauge or station by name. Their flood categories are coastal flooding, which storm surge scores (and
 * NRI counts apart from riverine flooding); in the riverine term they had put a river beside Miami's
 * Virginia Key tide gauge.
 */
export function isTidalGauge(pedts: string, locationName: string): boolean {
  return pedts.startsWith('HM') || /\b(MLLW|MHHW)\b|\btide\b/i.test(locationName);
}

/** NWPS all-gauges report: in-service river gauges (not tidal) with a defined flood stage, sorted by LID. */
export function parseNwpsGauges(text: string): FloodGauge[] {
  const rows = parse(text, { columns: true, skip_empty_lines: true, relax_column_count: true }) as Record<
    string,
    string
  >[];
  const out: FloodGauge[] = [];
  for (const r of rows) {
    if (r['in service'] !== 'TRUE' || !defined(r['flood stage'])) continue;
    if (isTidalGauge(r.pedts ?? '', r['location name'] ?? '')) continue;
    const lat = Number(r.latitude);
    const lng = Number(r.longitude);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || (lat === 0 && lng === 0)) continue;
    const weight =
      GAUGE_WEIGHT.flood +
      (defined(r['moderate flood stage']) ? GAUGE_WEIGHT.moderate : 0) +
      (defined(r['major flood stage']) ? GAUGE_WEIGHT.major : 0) +
      ((r['forecast status'] ?? '').startsWith('Forecasts are issued') ? GAUGE_WEIGHT.forecast : 0);
    out.push({ lid: r['nws shef id'], lat, lng, weight });
  }
  return out.sort((a, b) => (a.lid < b.lid ? -1 : a.lid > b.lid ? 1 : a.lat - b.lat || a.lng - b.lng));
}

/** Σ weight·exp(−d²/2σ²) over the gauges within 3σ of each cell centre. */
export function gaugeDensity(gauges: readonly FloodGauge[], query: CellQuery, nCells: number): Float64Array {
  const out = new Float64Array(nCells);
  const s2 = 2 * GAUGE_SIGMA_KM * GAUGE_SIGMA_KM;
  for (const g of gauges)
    query.within(g.lat, g.lng, 3 * GAUGE_SIGMA_KM, (cell, d) => (out[cell] += g.weight * Math.exp((-d * d) / s2)));
  return out;
}

/** Storms per year whose centre, at tropical strength and over land, passed within TC_RAIN_RADIUS_KM of each cell centre (each storm once). */
export function tropicalStormRate(storms: readonly Storm[], query: CellQuery, nCells: number): Float64Array {
  const count = new Float64Array(nCells);
  const lastStorm = new Int32Array(nCells).fill(-1);
  storms.forEach((s, k) => {
    if (s.year < TC_FIRST_YEAR || s.year > TC_LAST_YEAR) return;
    forEachHourlyFix(s.fixes, (f) => {
      if (!TC_STATUSES.has(f.status) || f.windKt < 34) return;
      let overLand = false;
      query.within(f.lat, f.lng, TC_LAND_KM, () => (overLand = true));
      if (!overLand) return;
      query.within(f.lat, f.lng, TC_RAIN_RADIUS_KM, (cell) => {
        if (lastStorm[cell] === k) return;
        lastStorm[cell] = k;
        count[cell] += 1;
      });
    });
  });
  const years = TC_LAST_YEAR - TC_FIRST_YEAR + 1;
  return count.map((c) => c / years);
}

/** Census 2010 urbanized area: at least 50,000 people (Federal Register 76:53030); smaller places get no UHI term. */
export const URBANIZED_POPULATION = 50_000;

/**
 * Urban-heat-island ΔT (°C, the daily-mean share of Oke's maximum) per cell. Each county of at least
 * URBANIZED_POPULATION people is an urban disk: its population at `urbanDensity` people/km² around its
 * 2020 centre of population (the wildfire cap's disks, hazards.ts); the cell holding the centre and the
 * cells whose centre lies inside the disk take Oke's ΔT for the county's population, the largest where
 * disks overlap.
 */
export function urbanHeatIsland(
  centres: readonly PopulationCentre[],
  query: CellQuery,
  nCells: number,
  urbanDensity: number,
): Float64Array {
  const out = new Float64Array(nCells);
  for (const c of centres) {
    if (!(c.population >= URBANIZED_POPULATION)) continue;
    const dT = UHI_DAILY_SHARE * Math.max(0, OKE_UHI.a * Math.log10(c.population) + OKE_UHI.b);
    const r = Math.sqrt(c.population / (Math.PI * urbanDensity));
    let own = -1;
    let ownD = Infinity;
    query.within(c.lat, c.lng, Math.max(r, 18), (cell, d) => {
      if (d <= r) out[cell] = Math.max(out[cell], dT);
      if (d < ownD || (d === ownD && cell < own)) [own, ownD] = [cell, d];
    });
    if (own >= 0) out[own] = Math.max(out[own], dT);
  }
  return out;
}

/** Heat-wave mortality multiplier of a ΔT (°C) warmer daily mean (Anderson & Bell 2011). */
export function heatMortalityFactor(deltaC: number): number {
  return (1 + HEAT_MORTALITY_PER_F) ** (deltaC * 1.8);
}

/** CONUS states (the latitude gradients are measured there; Alaska, Hawaii and the territories have other climates). */
export function isConusState(fips: string): boolean {
  return fips !== '02' && fips !== '15' && Number(fips) <= 56;
}

export interface Gradient {
  /** d log10(metric) / d latitude (per degree). */
  slope: number;
  r: number;
  states: number;
}

/** Least-squares slope of log10(metric) on the state's population-weighted latitude over the CONUS states with metric > 0. */
export function latitudeGradient(stateLat: Map<string, number>, metric: (fips: string) => number): Gradient {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [fips, lat] of [...stateLat].sort((a, b) => a[0].localeCompare(b[0]))) {
    const m = metric(fips);
    if (!isConusState(fips) || !(m > 0)) continue;
    xs.push(lat);
    ys.push(Math.log10(m));
  }
  return { ...leastSquares(xs, ys), states: xs.length };
}

/** NRI events per county-year (the relative score's frequency half, before the exposed share). */
export function nriEventsPerCountyYear(
  nri: Map<string, NriState>,
  prefix: string,
  years: number,
  countiesPerState: Map<string, number>,
) {
  return (fips: string) => nriNumber(nri.get(fips), `${prefix}_EVNTS`) / (years * (countiesPerState.get(fips) ?? NaN));
}

/** Population weight of each cell: its county's 2020 population shared equally among the county's cells. */
export function cellPopulationWeights(
  cells: readonly BuildCell[],
  countyPopulation: readonly (number | null)[],
): Float64Array {
  const perCounty = new Map<number, number>();
  for (const c of cells) perCounty.set(c.county, (perCounty.get(c.county) ?? 0) + 1);
  return Float64Array.from(cells, (c) => (countyPopulation[c.county] ?? 0) / perCounty.get(c.county)!);
}

/**
 * raw / (population-weighted mean of raw over the cell's state), capped to [floor, FACTOR_CAP].
 * A state whose cells carry no population falls back to the plain mean.
 */
export function normaliseWithinStates(
  raw: Float64Array,
  cells: readonly BuildCell[],
  weight: Float64Array,
  floor = 1 / FACTOR_CAP,
): Float64Array {
  const acc = new Map<string, [number, number, number, number]>();
  cells.forEach((c, i) => {
    const a = acc.get(c.stateFips) ?? [0, 0, 0, 0];
    a[0] += weight[i] * raw[i];
    a[1] += weight[i];
    a[2] += raw[i];
    a[3] += 1;
    acc.set(c.stateFips, a);
  });
  return Float64Array.from(cells, (c, i) => {
    const [wr, w, r, k] = acc.get(c.stateFips)!;
    const mean = w > 0 ? wr / w : r / k;
    const f = mean > 0 ? raw[i] / mean : 1;
    return Math.min(FACTOR_CAP, Math.max(floor, f));
  });
}
