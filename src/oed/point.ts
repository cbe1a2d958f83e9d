/**
 * `format=oasis` for one scored point (GET /risk/score, GET /events/{id}/score; enterprise tier): the rows
 * of the three Oasis files the bulk writer makes, as JSON arrays whose keys are the CSV column names, so
 * each array converts to its CSV one-to-one (docs/scoring.md#11-oasis-lmf-export---format-oasis-formatoasis):
 *   location    one OED 5.0.0 location row: PortNumber 'catintel', AccNumber (the event id or 'risk-score'),
 *               LocNumber '1', CountryCode, Latitude, Longitude, LocPerilsCovered (the OED codes scored),
 *               LocCurrency USD, BuildingTIV 0, OEDVersion 5.0.0, then the FlexiLocScore* columns
 *   keys        LocID 1, PerilID, CoverageTypeID 1, AreaPerilID, VulnerabilityID 0 per scored peril with
 *               an OED code
 *   keys_errors always empty here: a point we cannot score is refused with 422 before this is built
 */
import type { Horizon, Scenario } from '../domain/climate.js';
import type { PerilScore } from '../domain/scoring/peril-score.js';
import type { Peril } from '../domain/scoring/perils.js';
import { OED_VERSION } from './oed-fields.js';
import {
  FLEXI_MODEL_VERSION,
  FLEXI_SCENARIO,
  OED_CODE,
  areaPerilId,
  flexiScoreColumn,
  oedCodesOf,
  scenarioLabel,
} from './perils.js';

export interface OasisPointBody {
  format: 'oasis';
  oed_version: string;
  model_version: string;
  scenario: Scenario;
  horizon: Horizon | null;
  location: Record<string, string | number>[];
  keys: { LocID: number; PerilID: string; CoverageTypeID: number; AreaPerilID: number; VulnerabilityID: number }[];
  keys_errors: { LocID: number; PerilID: string; CoverageTypeID: number; Status: string; Message: string }[];
}

export interface OasisPointInput {
  lat: number;
  lng: number;
  cell: number;
  country: string;
  accNumber: string;
  scenario: Scenario;
  horizon: Horizon | null;
  modelVersion: string;
  perils: PerilScore[];
}

export function oasisPointBody(p: OasisPointInput): OasisPointBody {
  const perils = p.perils.map((s) => s.peril) as Peril[];
  // LocPerilsCovered is required; with only un-coded perils (heat, drought) the location covers all perils (AA1).
  const codes = oedCodesOf(perils) || 'AA1';
  const location: Record<string, string | number> = {
    PortNumber: 'catintel',
    AccNumber: p.accNumber,
    LocNumber: '1',
    CountryCode: p.country,
    Latitude: p.lat,
    Longitude: p.lng,
    LocPerilsCovered: codes,
    LocCurrency: 'USD',
    BuildingTIV: 0,
    OEDVersion: OED_VERSION,
  };
  for (const s of p.perils) location[flexiScoreColumn(s.peril)] = s.score;
  location[flexiScoreColumn('overall')] = Math.max(0, ...p.perils.map((s) => s.score));
  location[FLEXI_SCENARIO] = scenarioLabel(p.scenario, p.horizon);
  location[FLEXI_MODEL_VERSION] = p.modelVersion;
  const keys = p.perils
    .filter((s) => OED_CODE[s.peril] !== null)
    .map((s) => ({
      LocID: 1,
      PerilID: OED_CODE[s.peril]!,
      CoverageTypeID: 1,
      AreaPerilID: areaPerilId(p.cell, s.peril),
      VulnerabilityID: 0,
    }));
  return {
    format: 'oasis',
    oed_version: OED_VERSION,
    model_version: p.modelVersion,
    scenario: p.scenario,
    horizon: p.horizon,
    location: [location],
    keys,
    keys_errors: [],
  };
}
