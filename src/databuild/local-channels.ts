/**
 * The sub-state factors of the NRI-level perils (local-perils.ts has the terms and citations) assembled
 * for the build: the factors nri-channels.ts multiplies into each state's values, the channels that show
 * the terms in score_components, and the measured gradients for the manifest.
 */
import { LOG_CODEC, type Codec } from '../domain/scoring/grid-format.js';
import type { PopulationCentre } from '../reference-data/census.js';
import type { CellQuery } from '../reference-data/cell-query.js';
import type { ChannelData } from './encode.js';
import type { Storm } from '../reference-data/hurdat2.js';
import type { LocalFactors } from './nri-channels.js';
import type { NriState } from '../reference-data/nri.js';
import { nriNumber } from '../reference-data/nri.js';
import {
  FLOOD_BACKGROUND,
  FLOOD_FACTOR_FLOOR,
  TC_RAIN_GAIN,
  gaugeExposure,
  cellPopulationWeights,
  gaugeDensity,
  heatMortalityFactor,
  isConusState,
  latitudeGradient,
  normaliseWithinStates,
  nriEventsPerCountyYear,
  parseNwpsGauges,
  tropicalStormRate,
  urbanHeatIsland,
} from './local-perils.js';
import type { BuildCell } from '../reference-data/regions.js';

const linear = (scale: number): Codec => ({ kind: 'linear', scale });

export interface LocalInputs {
  cells: BuildCell[];
  query: CellQuery;
  nri: Map<string, NriState>;
  years: Map<string, number>; // NRI record years per prefix
  countyFips: string[];
  centres: PopulationCentre[];
  storms: Storm[];
  gauges: string; // NWPS all-gauges report (CSV text)
  urbanDensity: number; // people per km² of a built-up area (wildfire.ts URBAN_DENSITY_PER_KM2)
}

export function localPerilFactors(x: LocalInputs) {
  const { cells, query } = x;
  const n = cells.length;
  const channels: ChannelData[] = [];
  const params: Record<string, number> = {};
  const stats: Record<string, number> = {};
  const popByFips = new Map(x.centres.map((c) => [c.fips, c.population]));
  const countyPopulation = x.countyFips.map((f) => popByFips.get(f) ?? null);
  const weight = cellPopulationWeights(cells, countyPopulation);

  // Riverine flood: forecast points with flood categories plus a small background, normalised within the
  // state (floor FLOOD_FACTOR_FLOOR), plus the TC rain term, which stays (it lifts the whole state).
  const gauges = parseNwpsGauges(x.gauges);
  const density = gaugeDensity(gauges, query, n);
  let sum = 0;
  let k = 0;
  cells.forEach((c, i) => {
    if (isConusState(c.stateFips)) [sum, k] = [sum + density[i], k + 1];
  });
  const half = sum / k;
  const tcRate = tropicalStormRate(x.storms, query, n);
  const river = normaliseWithinStates(
    Float64Array.from(density, (g) => FLOOD_BACKGROUND + gaugeExposure(g, half)),
    cells,
    weight,
    FLOOD_FACTOR_FLOOR,
  );
  const flood = Float64Array.from(river, (f, i) => f + TC_RAIN_GAIN * tcRate[i]);
  params['riverine_flood.gauge_half'] = half;
  stats['riverine_flood.flood_category_gauges'] = gauges.length;
  channels.push({ name: 'riverine_flood.gauge_density', codec: LOG_CODEC, values: density });
  channels.push({ name: 'riverine_flood.tc_storms_per_year', codec: linear(10000), values: tcRate });
  channels.push({ name: 'riverine_flood.local_factor', codec: LOG_CODEC, values: flood });

  // Latitude gradients measured across the CONUS states, on the state's population-weighted latitude.
  const latAcc = new Map<string, [number, number]>();
  for (const c of x.centres) {
    const a = latAcc.get(c.fips.slice(0, 2)) ?? [0, 0];
    latAcc.set(c.fips.slice(0, 2), [a[0] + c.population * c.lat, a[1] + c.population]);
  }
  const stateLat = new Map([...latAcc].filter(([, [, p]]) => p > 0).map(([s, [wl, p]]) => [s, wl / p]));
  const countiesPerState = new Map<string, number>();
  for (const f of x.countyFips) countiesPerState.set(f.slice(0, 2), (countiesPerState.get(f.slice(0, 2)) ?? 0) + 1);
  const latTerm = (slope: number) =>
    Float64Array.from(cells, (c) => 10 ** (slope * (c.lat - (stateLat.get(c.stateFips) ?? c.lat))));
  const record = (key: string, g: { slope: number; r: number; states: number }) => {
    params[`${key}_slope_per_deg`] = g.slope;
    params[`${key}_r`] = g.r;
    params[`${key}_states`] = g.states;
  };

  // Extreme heat, loss half: latitude gradient of NRI's heat-wave loss rate, and the urban heat island.
  const heatLoss = latitudeGradient(stateLat, (f) => nriNumber(x.nri.get(f), 'HWAV_ALRP'));
  record('extreme_heat.loss_latitude', heatLoss);
  // Measured but not applied (|r| < 0.3 over the states: no gradient to speak of); the manifest keeps them for docs/scoring.md §9.
  record(
    'extreme_heat.events_latitude',
    latitudeGradient(stateLat, nriEventsPerCountyYear(x.nri, 'HWAV', x.years.get('HWAV') ?? NaN, countiesPerState)),
  );
  record(
    'drought.events_latitude',
    latitudeGradient(stateLat, nriEventsPerCountyYear(x.nri, 'DRGT', x.years.get('DRGT') ?? NaN, countiesPerState)),
  );
  const uhi = urbanHeatIsland(x.centres, query, n, x.urbanDensity);
  const heatLat = latTerm(heatLoss.slope);
  const heat = normaliseWithinStates(
    Float64Array.from(uhi, (t, i) => heatLat[i] * heatMortalityFactor(t)),
    cells,
    weight,
  );
  stats['extreme_heat.uhi_cells'] = uhi.reduce((t, v) => t + (v > 0 ? 1 : 0), 0);
  channels.push({ name: 'extreme_heat.uhi_c', codec: linear(1000), values: uhi });
  channels.push({ name: 'extreme_heat.local_factor', codec: LOG_CODEC, values: heat });

  // Winter storm: latitude gradients of NRI's winter-weather events per county-year and loss rate.
  const wntwYears = x.years.get('WNTW') ?? NaN;
  const winterEv = latitudeGradient(stateLat, nriEventsPerCountyYear(x.nri, 'WNTW', wntwYears, countiesPerState));
  const winterLoss = latitudeGradient(stateLat, (f) => nriNumber(x.nri.get(f), 'WNTW_ALRB'));
  record('winter_storm.events_latitude', winterEv);
  record('winter_storm.loss_latitude', winterLoss);
  const winterLam = normaliseWithinStates(latTerm(winterEv.slope), cells, weight);
  const winterLossF = normaliseWithinStates(latTerm(winterLoss.slope), cells, weight);
  channels.push({ name: 'winter_storm.local_factor', codec: LOG_CODEC, values: winterLam });
  channels.push({ name: 'winter_storm.local_loss_factor', codec: LOG_CODEC, values: winterLossF });

  const factors: LocalFactors = {
    riverine_flood: { lambda: flood, loss: flood },
    extreme_heat: { loss: heat },
    winter_storm: { lambda: winterLam, loss: winterLossF },
  };
  return { factors, channels, params, stats };
}
