/**
 * The perils we score and what each score means (docs/scoring.md has the full method and citations).
 * Two kinds of score:
 *  - 'frequency': absolute, from the annual frequency λ of a damaging and of a severe intensity at the
 *    site, built from a public catalog (docs/methods.md#score-mappings log-decade mapping).
 *  - 'relative': from the FEMA NRI state table: the mean of two relative log scales, how often (events
 *    per county-year) and how damaging (expected annual loss rate), each anchored at the national 5th
 *    and 95th state percentiles (NRI itself reports relative scores; docs/methods.md#reference-products).
 */
import { PAGER_US_ECONOMIC_LOSS } from './score-math.js';
export const PERILS = [
  'hurricane_wind',
  'storm_surge',
  'earthquake',
  'tornado',
  'wildfire',
  'riverine_flood',
  'extreme_heat',
  'drought',
  'winter_storm',
] as const;
export type Peril = (typeof PERILS)[number];

export type ScoreKind = 'frequency' | 'relative';

/**
 * The anchors of each frequency peril's 0–10 scale (docs/scoring.md §1.1 has the table and the places that
 * fix them): λ at 10^lo per year scores 0, at 10^hi scores 10, log-linear between, for the damaging and
 * the severe frequency alike (then weighted 0.6 / 0.4, docs/methods.md#score-mappings). `why` says what the anchors are.
 */
export const PERIL_SCALES = {
  hurricane_wind: {
    log10Lo: -4,
    log10Hi: -1,
    why: '10 = hurricane-force wind once in 10 years (south Florida, the Keys); 0 = once in 10,000 years',
  },
  storm_surge: { log10Lo: -4, log10Hi: -1, why: 'the hurricane anchors, on the coastal-tapered rate' },
  earthquake: {
    log10Lo: -4.5,
    log10Hi: -1.5,
    why: '10 = MMI VI once in about 30 years (the San Francisco Bay Area record, 1865-1989); 0 = once in 30,000 years (the stable interior)',
  },
  tornado: {
    log10Lo: -5.4,
    log10Hi: -3.3,
    why: '10 = an EF1+ path over the site once in 2,000 years (central Oklahoma, the US maximum); 0 = once in 250,000 years (the Pacific coast)',
  },
  wildfire: {
    log10Lo: -4.5,
    log10Hi: -1.5,
    why: '10 = the site burns once in 30 years (the Sierra Nevada foothills, Paradise CA); 0 = once in 30,000 years (cities, farmland)',
  },
} as const satisfies Partial<Record<string, { log10Lo: number; log10Hi: number; why: string }>>;

export interface PerilInfo {
  kind: ScoreKind;
  /** What λ_damaging / λ_severe count, in words a user can check. */
  thresholdDamaging: string;
  thresholdSevere: string | null;
  /** Unit of the 100-year intensity and the damaging→extreme anchors of S_int (docs/methods.md#score-mappings), if any. */
  intensity: { unit: string; damaging: number; extreme: number } | null;
  /** Damage function reported in score_components.vulnerability (docs/methods.md#damage-functions), if one applies. */
  damageFunction: string | null;
  /** Relative perils: which NRI loss rate the "how damaging" half of the score ranks. */
  lossRateBasis?: string;
  source: string;
  sourceUrl: string;
}

const NRI_URL = 'https://hazards.fema.gov/nri/data-resources';

export const PERIL_INFO: Record<Peril, PerilInfo> = {
  hurricane_wind: {
    kind: 'frequency',
    thresholdDamaging: '1-min sustained wind >= 64 kt at the site (hurricane force)',
    thresholdSevere: '1-min sustained wind >= 96 kt at the site (Saffir-Simpson category 3+)',
    intensity: { unit: 'kt', damaging: 64, extreme: 137 },
    damageFunction: 'emanuel2011_vthr25.7_vhalf86.0_ms',
    source: 'NOAA NHC HURDAT2 (Atlantic 1900-2024, NE/N-Central Pacific 1949-2024), Holland wind profile',
    sourceUrl: 'https://www.nhc.noaa.gov/data/#hurdat',
  },
  storm_surge: {
    kind: 'frequency',
    thresholdDamaging: 'hurricane-force (>= 64 kt) wind at a coastal site, tapered with distance from the shoreline',
    thresholdSevere: 'major-hurricane (>= 96 kt) wind at a coastal site, tapered with distance from the shoreline',
    intensity: null,
    damageFunction: null,
    source: 'NOAA NHC HURDAT2 with a coastal-distance taper (US Census cartographic boundaries via us-atlas)',
    sourceUrl: 'https://www.nhc.noaa.gov/data/#hurdat',
  },
  earthquake: {
    kind: 'frequency',
    thresholdDamaging: 'shaking MMI >= VI (strong; PGA about 0.115 g)',
    thresholdSevere: 'shaking MMI >= VIII (severe; PGA about 0.40 g)',
    intensity: { unit: 'MMI', damaging: 6, extreme: 10 },
    damageFunction: `pager_us_economic_loss_rate_theta${PAGER_US_ECONOMIC_LOSS.theta}_beta${PAGER_US_ECONOMIC_LOSS.beta}`,
    source: 'USGS NSHM 2023 smoothed-seismicity grids and NSHMP catalogs, AWW14 intensity prediction',
    sourceUrl: 'https://code.usgs.gov/ghsc/nshmp/nshms/nshm-conus',
  },
  tornado: {
    kind: 'frequency',
    thresholdDamaging: 'an (E)F1+ tornado damage path crosses the site',
    thresholdSevere: 'an (E)F3+ tornado damage path crosses the site',
    intensity: null,
    damageFunction: null,
    source: 'NOAA SPC Severe Weather Database tornadoes 1950-2022',
    sourceUrl: 'https://www.spc.noaa.gov/wcm/data/',
  },
  wildfire: {
    kind: 'frequency',
    thresholdDamaging: 'annual burn probability (any reported wildfire burns the site)',
    thresholdSevere: 'annual burn probability from fires that destroyed at least one structure',
    intensity: null,
    damageFunction: 'judgement_mdr_0.5_inside_perimeter',
    source: 'ICS-209 wildfire incident reports 1999-2024 (harmonised, lpiep/ics209_minimal)',
    sourceUrl: 'https://github.com/lpiep/ics209_minimal',
  },
  riverine_flood: {
    kind: 'relative',
    thresholdDamaging:
      'NRI inland-flooding events per year in a county of the US mean area (the state’s events per unit area), times the flood-exposed share of the state',
    thresholdSevere: null,
    intensity: null,
    damageFunction: null,
    lossRateBasis: 'NRI IFLD_ALRB (expected annual building loss rate) x IFLD_EXP_AREA/AREA',
    source: 'FEMA National Risk Index v1.20 (December 2025), state table, Inland Flooding (IFLD)',
    sourceUrl: NRI_URL,
  },
  extreme_heat: {
    kind: 'relative',
    thresholdDamaging: 'NRI heat-wave events per county-year',
    thresholdSevere: null,
    intensity: null,
    damageFunction: null,
    lossRateBasis: 'NRI HWAV_ALRP (expected annual population loss rate)',
    source: 'FEMA National Risk Index v1.20 (December 2025), state table, Heat Wave (HWAV)',
    sourceUrl: NRI_URL,
  },
  drought: {
    kind: 'relative',
    thresholdDamaging: 'NRI drought events per county-year',
    thresholdSevere: null,
    intensity: null,
    damageFunction: null,
    lossRateBasis: 'NRI DRGT_ALRA (expected annual agriculture loss rate)',
    source: 'FEMA National Risk Index v1.20 (December 2025), state table, Drought (DRGT)',
    sourceUrl: NRI_URL,
  },
  winter_storm: {
    kind: 'relative',
    thresholdDamaging: 'NRI winter-weather events per county-year',
    thresholdSevere: null,
    intensity: null,
    damageFunction: null,
    lossRateBasis: 'NRI WNTW_ALRB (expected annual building loss rate)',
    source: 'FEMA National Risk Index v1.20 (December 2025), state table, Winter Weather (WNTW)',
    sourceUrl: NRI_URL,
  },
};

/**
 * Where the NRI fallback fills a catalog peril (docs/scoring.md: method `nri_state_fallback`; Alaska, Hawaii,
 * Puerto Rico, Guam and other places our catalogs do not reach), the score is made from the FEMA NRI state
 * table, not the catalog: it names that table as its source.
 */
export const NRI_FALLBACK_SOURCE: Partial<Record<Peril, string>> = {
  hurricane_wind:
    'FEMA National Risk Index v1.20 (December 2025), state table, Hurricane (HRCN_ALRB), scaled by the ratio of HURDAT2 rates to NRI in the states HURDAT2 covers',
  storm_surge:
    'FEMA National Risk Index v1.20 (December 2025), state table, Hurricane (HRCN_ALRB), scaled by the ratio of HURDAT2 rates to NRI in the states HURDAT2 covers, with a coastal-distance taper',
  earthquake:
    'FEMA National Risk Index v1.20 (December 2025), state table, Earthquake (ERQK_ALRB), scaled by the ratio of NSHM catalog rates to NRI in the states the catalogs cover',
};
export const NRI_FALLBACK_URL = NRI_URL;

/**
 * Event types (docs/contract.md#events) accepted wherever a peril is named (docs/contract.md#peril-names): the ones spelled like a
 * peril need no entry; severe_storm, tsunami and volcano have no hazard score, so they stay refused.
 */
export const PERIL_ALIASES: Readonly<Record<string, Peril>> = { hurricane: 'hurricane_wind', flood: 'riverine_flood' };
