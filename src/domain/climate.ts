/**
 * Climate adjustment factors: multipliers on hazard frequency (and a few intensities) relative to the
 * ~1995–2014 baseline, by SSP scenario and horizon. Every number is the table of
 * docs/methods.md#climate-adjustment (sources there: Knutson et al. 2020 via Jewson 2021 for tropical
 * cyclones, Sweet et al. 2022 for sea level, IPCC AR6 WGI SPM Fig. SPM.6 for heat, precipitation and
 * drought, NRC 2011 / Abatzoglou & Williams 2016 for western wildfire). docs/scoring.md lists them again
 * with their verification status. Pure data and lookups; no I/O.
 */

export const SCENARIOS = ['baseline', 'ssp245', 'ssp585'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export const HORIZONS = [2030, 2050, 2080] as const;
export type Horizon = (typeof HORIZONS)[number];

/** The named factors of docs/methods.md#climate-adjustment, one per table row we use. */
export type ClimateFactor =
  | 'tc_frequency_all' // North Atlantic all-TC frequency
  | 'tc_frequency_cat45' // Cat 4–5 frequency
  | 'tc_vmax' // mean lifetime-max intensity (multiplier on wind speed)
  | 'surge_frequency' // frequency of a fixed coastal water level, exp(ΔSLR/λ_G), λ_G = 0.15 m
  | 'heat_frequency' // 10-yr hot extreme frequency
  | 'precip_frequency' // extreme 1-day precipitation frequency (upper bound for riverine flood)
  | 'drought_frequency' // agricultural/ecological drought frequency, drying regions
  | 'wildfire_west' // western forest area burned, 2^(GWL−1.0) capped at 4
  | 'winter_frequency'; // winter storm days (low confidence, fewer snow days)

/** Row values in the order 2030, 2050, 2080. */
type Row = readonly [number, number, number];

const SSP245: Record<ClimateFactor, Row> = {
  tc_frequency_all: [0.95, 0.92, 0.89],
  tc_frequency_cat45: [1.03, 1.06, 1.09],
  tc_vmax: [1.009, 1.015, 1.022],
  surge_frequency: [1.9, 6.5, 20],
  heat_frequency: [1.46, 2.0, 2.34],
  precip_frequency: [1.15, 1.31, 1.5],
  drought_frequency: [1.18, 1.41, 1.66],
  wildfire_west: [1.41, 2.0, 2.83],
  winter_frequency: [1.0, 0.97, 0.95],
};

const SSP585: Record<ClimateFactor, Row> = {
  tc_frequency_all: [0.95, 0.89, 0.8],
  tc_frequency_cat45: [1.04, 1.08, 1.17],
  tc_vmax: [1.01, 1.022, 1.043],
  surge_frequency: [1.9, 6.5, 55],
  heat_frequency: [1.57, 2.27, 3.29],
  precip_frequency: [1.18, 1.46, 2.04],
  drought_frequency: [1.22, 1.61, 2.36],
  wildfire_west: [1.52, 2.64, 4.0],
  winter_frequency: [1.0, 0.95, 0.9],
};

/**
 * Global warming level (°C above 1850–1900): AR6 WGI Table SPM.1 best estimates for 2021–40 (→ 2030) and
 * 2041–60 (→ 2050); 2080 interpolated between 2041–60 and 2081–2100 (docs/methods.md#climate-adjustment, marked U there).
 * The baseline period 1995–2014 is 0.85 °C (AR6 Fig. SPM.8 caption).
 */
const GWL_C: Record<Exclude<Scenario, 'baseline'>, Row> = {
  ssp245: [1.5, 2.0, 2.5],
  ssp585: [1.6, 2.4, 3.9],
};
export const BASELINE_GWL_C = 0.85;

export interface ClimateCase {
  scenario: Scenario;
  horizon: Horizon | null; // null for the baseline scenario
  gwlC: number;
  factor: (f: ClimateFactor) => number;
}

/** The factors for one scenario and horizon; every factor is exactly 1 under 'baseline'. */
export function climateCase(scenario: Scenario, horizon: Horizon | null): ClimateCase {
  if (scenario === 'baseline') return { scenario, horizon: null, gwlC: BASELINE_GWL_C, factor: () => 1 };
  const h = horizon ?? 2050;
  const i = HORIZONS.indexOf(h);
  const table = scenario === 'ssp245' ? SSP245 : SSP585;
  return { scenario, horizon: h, gwlC: GWL_C[scenario][i], factor: (f) => table[f][i] };
}

/**
 * Eastern and grassland wildfire: docs/methods.md#climate-adjustment gives 1.0–1.2 for the whole century. We interpolate
 * linearly with the western multiplier so that 1.0 ↔ ×1 and the capped western ×4 ↔ ×1.2 [judgement].
 */
export function wildfireEastFactor(westFactor: number): number {
  return 1 + (0.2 * (westFactor - 1)) / 3;
}
