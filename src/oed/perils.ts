/**
 * Our perils in Oasis terms (docs/scoring.md "Oasis LMF export"): the OED peril code each one is keyed
 * under, the LocPerilsCovered codes and groups that include it, the FlexiLoc column that carries its score,
 * and the AreaPerilID of a (grid cell, peril).
 *
 * Mapping (OED 5.0.0 PerilValues / PerilsCovered, ods-tools 5.0.9 spec):
 *   hurricane_wind -> WTC (tropical-cyclone wind)     storm_surge -> WSS (storm surge)
 *   earthquake     -> QEQ (earthquake shake)          tornado     -> XTD (tornado)
 *   wildfire       -> BBF (wildfire / bushfire)       riverine_flood -> ORF (river / fluvial flood)
 *   winter_storm   -> ZSN (snow): NRI Winter Weather is snow, ice and freezing rain; snow is its main loss
 *                     driver, and one code per peril keeps AreaPerilID one-to-one [judgement]
 *   extreme_heat, drought -> no OED peril code (SSD is drought-induced subsidence, not the agricultural
 *                     drought NRI measures). Their scores travel in FlexiLoc columns only, never in keys.
 */
import { PERILS, type Peril } from '../domain/scoring/perils.js';

export const OED_CODE: Record<Peril, string | null> = {
  hurricane_wind: 'WTC',
  storm_surge: 'WSS',
  earthquake: 'QEQ',
  tornado: 'XTD',
  wildfire: 'BBF',
  riverine_flood: 'ORF',
  extreme_heat: null,
  drought: null,
  winter_storm: 'ZSN',
};

/** The LocPerilsCovered codes that include each keyed code: itself and the OED groups that contain it. */
export const COVERED_BY: Record<string, readonly string[]> = {
  WTC: ['WTC', 'WW1', 'WW2', 'AA1'],
  WSS: ['WSS', 'WW1', 'AA1'],
  QEQ: ['QEQ', 'QQ1', 'AA1'],
  XTD: ['XTD', 'XX1', 'XZ1', 'AA1'],
  BBF: ['BBF', 'BB1', 'AA1'],
  ORF: ['ORF', 'OO1', 'AA1'],
  ZSN: ['ZSN', 'ZZ1', 'XZ1', 'AA1'],
};

/** A peril's bit in a covered-perils mask is its index in PERILS. */
export const perilBit = (p: Peril): number => 1 << PERILS.indexOf(p);

/**
 * The mask of `perils` (those with an OED code) that a LocPerilsCovered value covers, e.g. 'WW1;QQ1' ->
 * hurricane_wind | storm_surge | earthquake. Codes are split on ';', trimmed and upper-cased; unknown
 * codes cover nothing.
 */
export function coveredMask(locPerilsCovered: string, perils: readonly Peril[]): number {
  const codes = new Set(locPerilsCovered.split(';').map((c) => c.trim().toUpperCase()));
  let mask = 0;
  for (const p of perils) {
    const code = OED_CODE[p];
    if (code && COVERED_BY[code].some((c) => codes.has(c))) mask |= perilBit(p);
  }
  return mask;
}

/** The OED codes of the perils that have one, ';'-joined: the LocPerilsCovered we write when the input has none. */
export function oedCodesOf(perils: readonly Peril[]): string {
  return perils
    .map((p) => OED_CODE[p])
    .filter((c): c is string => c !== null)
    .join(';');
}

/** 'hurricane_wind' -> 'FlexiLocScoreHurricaneWind'; the ods-tools validator accepts any FlexiLoc<Name>. */
export function flexiScoreColumn(p: Peril | 'overall'): string {
  return (
    'FlexiLocScore' +
    p
      .split('_')
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join('')
  );
}

export const FLEXI_SCENARIO = 'FlexiLocScoreScenario';
export const FLEXI_MODEL_VERSION = 'FlexiLocScoreModelVersion';

/**
 * AreaPerilID = (cell + 1) * 10 + the peril's index in PERILS: one id per (hazard-grid cell, peril), as an
 * Oasis areaperil stands for one area and one peril together (Oasis model files, oasislmf). Cell ids belong to a data
 * build (model_version), so AreaPerilIDs are comparable only within one model version.
 */
export function areaPerilId(cell: number, p: Peril): number {
  return (cell + 1) * 10 + PERILS.indexOf(p);
}

/**
 * ISO 3166 alpha-2 code of a grid cell, from the 2020 state FIPS of its county: territories have their own
 * codes (PR, VI, GU, MP, AS), everything else is US.
 */
const TERRITORY: Record<string, string> = { '72': 'PR', '78': 'VI', '66': 'GU', '69': 'MP', '60': 'AS' };

export function countryOfFips(countyFips: string): string {
  return TERRITORY[countyFips.slice(0, 2)] ?? 'US';
}

/** Scenario label written beside scores: 'baseline' or 'ssp245-2050'. */
export function scenarioLabel(scenario: string, horizon: number | null): string {
  return horizon === null ? scenario : `${scenario}-${horizon}`;
}
