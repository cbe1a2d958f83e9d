/**
 * One peril's score at one grid cell, with the score_components of docs/contract.md#scores (documented keys:
 * frequency, intensity, exposure, vulnerability, climate_adjustment, baseline_score, confidence).
 * docs/scoring.md explains every field. `perilScoreValue` is the allocation-light path for bulk work.
 */
import type { ClimateCase, Horizon, Scenario } from '../climate.js';
import { perilMultipliers } from './climate-multipliers.js';
import { REFERENCE_BUILDING_BASIS, referenceBuildingEadr, riskScore } from './damage-ratio.js';
import { damageRatioAt, type DamageRatioSource, type ModelDamagePoint } from './damage-ratio-source.js';
import type { HazardGrid } from './grid.js';
import { NRI_FALLBACK_SOURCE, NRI_FALLBACK_URL, PERIL_INFO, PERIL_SCALES, type Peril } from './perils.js';
import {
  combinedFrequencyScore,
  confidenceLevel,
  emanuelMdr,
  intensityScore,
  MODELS_MD_SCALE,
  scaledFrequencyScore,
  type FrequencyScale,
  pagerLossRate,
  percentileOf,
  relativePairScore,
  relativeScore,
  round2,
  type Confidence,
} from './score-math.js';

export interface ScoreComponents {
  frequency: {
    method: 'catalog' | 'nri_state_fallback' | 'nri_state_relative';
    threshold_damaging: string;
    threshold_severe: string | null;
    lambda_damaging: number | null; // per year, climate-adjusted
    lambda_severe: number | null;
    return_period_years_damaging: number | null;
    score_damaging: number | null;
    score_severe: number | null;
    events_used: number | null;
    record_years: number | null;
    /** Frequency perils: the λ that score 0 and 10 on this peril's scale, and why (docs/scoring.md §1.1). */
    scale?: { lambda_score_0: number; lambda_score_10: number; basis: string };
    /** Relative perils only: the two halves of the score and the national log10 anchors of each scale. */
    relative?: {
      events_score: number | null;
      events_log10_range: [number, number];
      loss_rate: number | null;
      loss_rate_basis: string;
      loss_rate_score: number | null;
      loss_rate_log10_range: [number, number];
    };
  };
  intensity: { rp100: { value: number; unit: string } | null; score: number | null };
  exposure: { county_fips: string; county_population_2020: number | null; population_density_per_km2: number | null };
  vulnerability: {
    damage_function: string | null;
    mdr_at_rp100: number | null;
    /**
     * Expected annual building loss / building value (1/yr), comparable across perils; climate-adjusted. From the
     * model package through the loss engine for hurricane wind and earthquake, the hazard baseline otherwise
     * (damage-ratio-source.ts): `damage_ratio_source` says which, and what it was computed with.
     */
    expected_annual_damage_ratio: number | null;
    damage_ratio_basis: string;
    damage_ratio_source: DamageRatioSource;
    /**
     * The same figure for a reference building from the damage functions of docs/methods.md#damage-functions integrated over
     * the site's hazard curve (damage-ratio.ts referenceBuildingEadr), and the cross-peril (docs/methods.md#score-mappings)
     * S_risk = clamp(2·(log10 EADR + 6), 0, 10); null where the grid holds no intensity for the peril.
     */
    reference_building: {
      expected_annual_damage_ratio: number | null;
      risk_score: number | null;
      basis: string | null;
    };
  };
  /** How finely the data resolve this peril here (docs/scoring.md §9), term by term for the NRI-level perils. */
  resolution: { cell_km: number; hazard_varies_by: 'cell' | 'state'; basis: string; terms?: ResolutionTerm[] };
  climate_adjustment: {
    scenario: Scenario;
    horizon: Horizon | null;
    gwl_c: number;
    frequency_multiplier: number;
    severe_frequency_multiplier: number;
    intensity_multiplier: number;
    delta_score: number;
    basis: string;
  };
  baseline_score: number;
  confidence: Confidence;
}

/** One term of a score and the resolution of its data (docs/scoring.md §9). */
export interface ResolutionTerm {
  term: string;
  varies_by: 'cell' | 'county' | 'state';
  /** Length scale of the term's data in km (kernel σ, search radius, cell size), null for a state value. */
  scale_km: number | null;
  /** The term's value here (unit in `basis`), null where the grid holds none. */
  value: number | null;
  basis: string;
}

export interface PerilScore {
  peril: Peril;
  score: number;
  percentile: number | null; // national, population-weighted, against baseline scores
  score_components: ScoreComponents;
  source: string;
  source_url: string;
  ingested_at: string;
  model_version: string;
  /** The data build the score was read from (its manifest's data_version). */
  data_version: string;
}

/** Grid cells are 0.25°: about 25 km on a side in the middle latitudes. */
const RESOLUTION_KM = 25;

function ch(grid: HazardGrid, peril: Peril, field: string, cell: number): number {
  const a = grid.channels.get(`${peril}.${field}`);
  return a ? a[cell] : NaN;
}

function param(grid: HazardGrid, name: string): number {
  const v = grid.header.params[name];
  return v === undefined ? NaN : v;
}

/** The unrounded score under multipliers (dmg, sev); shared by the fast and the full path. */
function rawScore(grid: HazardGrid, cell: number, peril: Peril, mDmg: number, mSev: number): number {
  const info = PERIL_INFO[peril];
  if (info.kind === 'relative') {
    const [fLo, fHi, lLo, lHi] = relativeAnchors(grid, peril);
    return relativePairScore(
      ch(grid, peril, 'lambda_damaging', cell) * mDmg,
      fLo,
      fHi,
      ch(grid, peril, 'loss_rate', cell) * mDmg,
      lLo,
      lHi,
    );
  }
  return combinedFrequencyScore(
    ch(grid, peril, 'lambda_damaging', cell) * mDmg,
    ch(grid, peril, 'lambda_severe', cell) * mSev,
    scaleOf(peril),
  );
}

function scaleOf(peril: Peril): FrequencyScale {
  return (PERIL_SCALES as Partial<Record<Peril, FrequencyScale>>)[peril] ?? MODELS_MD_SCALE;
}

/** What varies within a state, per peril, in words (docs/scoring.md §9). */
const RESOLUTION_BASIS: Record<Peril, string> = {
  hurricane_wind: 'HURDAT2 wind footprints per 0.25-degree cell, smoothed with a 30 km Gaussian',
  storm_surge: 'hurricane footprints per cell times a coastal-distance taper (0-60 km from the shore)',
  earthquake:
    'fault ruptures and smoothed seismicity per 0.25-degree cell (rupture distance to each cell centre); no site-specific soil',
  tornado: 'SPC touchdowns smoothed with an 80 km Gaussian over 0.25-degree cells',
  wildfire:
    'ICS-209 burned areas spread from each point of origin over 0.25-degree cells; in dense urban fabric, the ember exposure (2.4 km reach, Radeloff et al. 2005) of the median public facility of the cell from points of origin',
  riverine_flood:
    'FEMA NRI state level redistributed within the state by NWPS flood-category gauges (25 km kernel; down to 1/50 of the state level far from any), times HURDAT2 tropical-storm passages (200 km); no floodplain, elevation or claims data',
  extreme_heat:
    'FEMA NRI state level; the loss half redistributed by latitude (0.25-degree cell) and an urban heat island from county population; event counts state-level',
  drought: 'FEMA NRI state table: one value per state (nothing in the shared data resolves drought below state level)',
  winter_storm: 'FEMA NRI state level redistributed within the state by latitude (0.25-degree cell); no elevation term',
};

/** The terms of the NRI-level perils, with this cell's values (docs/scoring.md §9). */
function resolutionTerms(grid: HazardGrid, cell: number, peril: Peril): ResolutionTerm[] | undefined {
  const v = (field: string, digits = 4): number | null => {
    const x = ch(grid, peril, field, cell);
    return Number.isFinite(x) ? Number(x.toPrecision(digits)) : null;
  };
  // The state's own event rate: the cell's λ without its sub-state factor (heat's factor is on the loss half only).
  const f = peril === 'extreme_heat' || peril === 'drought' ? 1 : ch(grid, peril, 'local_factor', cell);
  const lam = ch(grid, peril, 'lambda_damaging', cell) / (Number.isFinite(f) ? f : 1);
  const state: ResolutionTerm = {
    term: 'nri_state_level',
    varies_by: 'state',
    scale_km: null,
    value: Number.isFinite(lam) ? sig(lam) : null,
    basis: `${PERIL_INFO[peril].source}: the state's events per ${peril === 'riverine_flood' ? 'year in a county of the US mean area' : 'county-year'} (the value) and loss rate`,
  };
  const slope = (key: string) => sig(param(grid, key));
  switch (peril) {
    case 'riverine_flood':
      return [
        state,
        {
          term: 'flood_category_gauges',
          varies_by: 'cell',
          scale_km: 25,
          value: v('gauge_density'),
          basis:
            'NWPS gauges with a defined flood stage (weight 1, +0.5 each for moderate and major stages, +1 where the NWS issues river forecasts), Gaussian-weighted with sigma 25 km; enters as 1 - exp(-G / G_half)',
        },
        {
          term: 'tropical_cyclone_rain',
          varies_by: 'cell',
          scale_km: 200,
          value: v('tc_storms_per_year'),
          basis:
            'HURDAT2 storms per year at tropical strength (TS, HU, SS) whose centre passed over land within 200 km, 1950-2024',
        },
        {
          term: 'local_factor',
          varies_by: 'cell',
          scale_km: 25,
          value: v('local_factor'),
          basis:
            'multiplier of the state values here: the gauge term normalised to a population-weighted mean of 1 over the state and kept within 1/50-4, plus tropical storms per year',
        },
      ];
    case 'extreme_heat':
      return [
        state,
        {
          term: 'latitude',
          varies_by: 'cell',
          scale_km: 25,
          value: slope('extreme_heat.loss_latitude_slope_per_deg'),
          basis:
            'log10 of the NRI heat-wave loss rate per degree of latitude, measured across the CONUS states; event counts show no gradient and stay state-level',
        },
        {
          term: 'urban_heat_island',
          varies_by: 'county',
          scale_km: null,
          value: v('uhi_c', 3),
          basis:
            'degrees C: half of Oke (1973) 2.01 log10(P) - 4.06 for the county population P on its urban disk (386 people/km2), counties of 50,000 or more; +2.49 % heat-wave mortality per degree F (Anderson & Bell 2011)',
        },
        {
          term: 'local_factor',
          varies_by: 'cell',
          scale_km: 25,
          value: v('local_factor'),
          basis: 'multiplier of the state loss rate here; population-weighted mean 1 over the state, kept within 1/4-4',
        },
      ];
    case 'winter_storm':
      return [
        state,
        {
          term: 'latitude',
          varies_by: 'cell',
          scale_km: 25,
          value: slope('winter_storm.events_latitude_slope_per_deg'),
          basis:
            'log10 of NRI winter-weather events per county-year per degree of latitude, measured across the CONUS states (the loss rate has its own slope)',
        },
        {
          term: 'local_factor',
          varies_by: 'cell',
          scale_km: 25,
          value: v('local_factor'),
          basis:
            'multiplier of the state event rate here; population-weighted mean 1 over the state, kept within 1/4-4',
        },
      ];
    case 'drought':
      return [state];
    default:
      return undefined;
  }
}

function resolutionOf(
  grid: HazardGrid,
  cell: number,
  peril: Peril,
  relative: boolean,
  nriOnly: boolean,
): ScoreComponents['resolution'] {
  if (!relative) {
    return nriOnly
      ? {
          cell_km: RESOLUTION_KM,
          hazard_varies_by: 'state',
          basis: 'FEMA NRI state table (no catalog here): one value per state',
        }
      : { cell_km: RESOLUTION_KM, hazard_varies_by: 'cell', basis: RESOLUTION_BASIS[peril] };
  }
  const terms = resolutionTerms(grid, cell, peril);
  if (peril === 'drought')
    return {
      cell_km: RESOLUTION_KM,
      hazard_varies_by: 'state',
      basis: RESOLUTION_BASIS[peril],
      ...(terms ? { terms } : {}),
    };
  // A grid built before the sub-state terms holds no local factor: the peril is then state-level throughout.
  if (!grid.channels.has(`${peril}.local_factor`))
    return { cell_km: RESOLUTION_KM, hazard_varies_by: 'state', basis: 'FEMA NRI state table: one value per state' };
  return {
    cell_km: RESOLUTION_KM,
    hazard_varies_by: 'cell',
    basis: RESOLUTION_BASIS[peril],
    ...(terms ? { terms } : {}),
  };
}

function relativeAnchors(grid: HazardGrid, peril: Peril): [number, number, number, number] {
  return [
    param(grid, `${peril}.frequency_log10_lo`),
    param(grid, `${peril}.frequency_log10_hi`),
    param(grid, `${peril}.loss_log10_lo`),
    param(grid, `${peril}.loss_log10_hi`),
  ];
}

/** Just the 0.00–10.00 score. */
export function perilScoreValue(grid: HazardGrid, cell: number, peril: Peril, c: ClimateCase): number {
  const m = perilMultipliers(grid, cell, peril, c);
  return round2(rawScore(grid, cell, peril, m.damaging, m.severe));
}

const nullIfNaN = (x: number): number | null => (Number.isFinite(x) ? x : null);
const sig = (x: number): number => Number(x.toPrecision(4));

/** `at`: the point and the model damage table the model perils' damage ratio is read from (without it, the baseline's, said so). */
export function perilScore(
  grid: HazardGrid,
  cell: number,
  peril: Peril,
  c: ClimateCase,
  at?: ModelDamagePoint,
): PerilScore {
  const info = PERIL_INFO[peril];
  const m = perilMultipliers(grid, cell, peril, c);
  const score = round2(rawScore(grid, cell, peril, m.damaging, m.severe));
  const baseline = round2(rawScore(grid, cell, peril, 1, 1));
  const origin = ch(grid, peril, 'origin', cell);
  const relative = info.kind === 'relative';
  const nriOnly = relative || origin === 1;

  const lamD = ch(grid, peril, 'lambda_damaging', cell) * m.damaging;
  const lamS = ch(grid, peril, 'lambda_severe', cell) * m.severe;
  const events = ch(grid, peril, 'events', cell);
  const cellYears = ch(grid, peril, 'record_years', cell);
  const recordYears = Number.isFinite(cellYears) ? cellYears : param(grid, `${peril}.record_years`);

  const frequency: ScoreComponents['frequency'] = {
    method: relative ? 'nri_state_relative' : origin === 1 ? 'nri_state_fallback' : 'catalog',
    threshold_damaging: info.thresholdDamaging,
    threshold_severe: info.thresholdSevere,
    lambda_damaging: Number.isFinite(lamD) ? sig(lamD) : null,
    lambda_severe: relative || !Number.isFinite(lamS) ? null : sig(lamS),
    return_period_years_damaging: !relative && lamD > 0 ? sig(1 / lamD) : null,
    score_damaging: relative ? null : round2(scaledFrequencyScore(lamD, scaleOf(peril))),
    score_severe: relative ? null : round2(scaledFrequencyScore(lamS, scaleOf(peril))),
    events_used: nriOnly ? null : nullIfNaN(events),
    record_years: nullIfNaN(recordYears),
  };
  if (!relative) {
    const sc = scaleOf(peril);
    const why = (PERIL_SCALES as Partial<Record<Peril, { why: string }>>)[peril]?.why ?? '';
    frequency.scale = { lambda_score_0: sig(10 ** sc.log10Lo), lambda_score_10: sig(10 ** sc.log10Hi), basis: why };
  }
  if (relative) {
    const [fLo, fHi, lLo, lHi] = relativeAnchors(grid, peril);
    const loss = ch(grid, peril, 'loss_rate', cell) * m.damaging;
    frequency.relative = {
      events_score: Number.isFinite(lamD) ? round2(relativeScore(lamD, fLo, fHi)) : null,
      events_log10_range: [fLo, fHi],
      loss_rate: Number.isFinite(loss) ? sig(loss) : null,
      loss_rate_basis: info.lossRateBasis ?? '',
      loss_rate_score: Number.isFinite(loss) ? round2(relativeScore(loss, lLo, lHi)) : null,
      loss_rate_log10_range: [lLo, lHi],
    };
  }

  const i100 = ch(grid, peril, 'intensity_rp100', cell) * m.intensity;
  const hasIntensity = info.intensity !== null && i100 > 0;
  const intensity: ScoreComponents['intensity'] = {
    rp100: hasIntensity ? { value: round2(i100), unit: info.intensity!.unit } : null,
    score:
      info.intensity === null
        ? null
        : hasIntensity
          ? round2(intensityScore(i100, info.intensity.damaging, info.intensity.extreme))
          : 0,
  };

  const k = grid.county[cell];
  const pop = grid.header.counties.population[k];
  const area = grid.header.counties.areaKm2[k];
  const exposure: ScoreComponents['exposure'] = {
    county_fips: grid.header.counties.fips[k],
    county_population_2020: pop,
    population_density_per_km2: pop !== null && area > 0 ? round2(pop / area) : null,
  };

  const damage = damageRatioAt(grid, cell, peril, m.damaging, at);
  let mdr: number | null = null;
  if (peril === 'hurricane_wind' && hasIntensity) mdr = sig(emanuelMdr(i100));
  if (peril === 'earthquake' && hasIntensity) mdr = sig(pagerLossRate(i100));
  if (peril === 'wildfire') mdr = 0.5;

  return {
    peril,
    score,
    percentile: percentileOf(score, grid.header.percentiles[peril]),
    score_components: {
      frequency,
      intensity,
      exposure,
      vulnerability: {
        damage_function: info.damageFunction,
        mdr_at_rp100: mdr,
        expected_annual_damage_ratio: nullIfNaN(sig(damage.value)),
        damage_ratio_basis: damage.basis,
        damage_ratio_source: damage.source,
        reference_building: (() => {
          // The model's ratio is a reference building's already (damage-ratio-source.ts): the same figure.
          if (damage.source.kind === 'model')
            return {
              expected_annual_damage_ratio: sig(damage.value),
              risk_score: round2(riskScore(damage.value)),
              basis: damage.basis,
            };
          const eadr = referenceBuildingEadr(grid, cell, peril, m.damaging);
          const ok = Number.isFinite(eadr);
          return {
            expected_annual_damage_ratio: ok ? sig(eadr) : null,
            risk_score: ok ? round2(riskScore(eadr)) : null,
            basis: REFERENCE_BUILDING_BASIS[peril],
          };
        })(),
      },
      resolution: resolutionOf(grid, cell, peril, relative, nriOnly),
      climate_adjustment: {
        scenario: c.scenario,
        horizon: c.horizon,
        gwl_c: c.gwlC,
        frequency_multiplier: sig(m.damaging),
        severe_frequency_multiplier: sig(m.severe),
        intensity_multiplier: sig(m.intensity),
        delta_score: round2(score - baseline),
        basis: m.basis,
      },
      baseline_score: baseline,
      confidence: confidenceLevel({ eventsUsed: events, recordYears, resolutionKm: RESOLUTION_KM, nriOnly }),
    },
    // A cell the catalog does not reach was filled from the NRI state table: that is what the score was made from.
    source: origin === 1 ? (NRI_FALLBACK_SOURCE[peril] ?? info.source) : info.source,
    source_url: origin === 1 && NRI_FALLBACK_SOURCE[peril] ? NRI_FALLBACK_URL : info.sourceUrl,
    ingested_at: grid.header.ingestedAt,
    model_version: grid.header.modelVersion,
    data_version: grid.header.dataVersion,
  };
}
