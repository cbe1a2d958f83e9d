/**
 * GET /risk/score and `catintel score point`: climate-adjusted hazard scores for one point (docs/contract.md#scores,
 * docs/scoring.md). Reads the embedded hazard baseline (data/baseline), not the store.
 * Free tier: one peril per request; without `perils` it gets the peril with the highest expected annual
 * damage ratio, and `peril_selection` says why; asking for more than one is 403 insufficient_tier.
 * Points outside US states and territories are 422.
 * format=oasis (enterprise; the HTTP layer enforces it from the registry, parse() checks it again): the
 * OED location row and keys rows as JSON arrays (src/oed/point.ts, docs/scoring.md §10).
 */
import { SCENARIOS, type Horizon, type Scenario } from '../domain/climate.js';
import { cellAt } from '../domain/scoring/grid.js';
import { PERILS, PERIL_ALIASES, type Peril } from '../domain/scoring/perils.js';
import { defaultPeril, scorePoint, type PerilSelection } from '../domain/scoring/score-point.js';
import type { PerilScore } from '../domain/scoring/peril-score.js';
import { loadBaselineGrid } from '../reference-data/load-baseline.js';
import { loadModelDamage } from '../reference-data/model-damage.js';
import { CatintelError, invalidParameter } from '../errors.js';
import { oasisPointBody, type OasisPointBody } from '../oed/point.js';
import { countryOfFips } from '../oed/perils.js';
import { list, num, str } from './params.js';
import { defineHandler, type Caller, type HandlerResult } from './types.js';

export type ScoreFormat = 'json' | 'oasis';

/** The options shared by every score endpoint: perils, climate case, output format, tier. */
export interface ScoreOptions {
  perils: Peril[] | null; // null: all (paid tiers), or on free the one with the highest expected annual damage ratio
  scenario: Scenario;
  horizon: Horizon | null;
  format: ScoreFormat;
  freeTier: boolean;
}

export interface ScorePointInput extends ScoreOptions {
  lat: number;
  lng: number;
}

export interface ScorePointBody {
  lat: number;
  lng: number;
  scenario: Scenario;
  horizon: Horizon | null;
  perils: PerilScore[];
  /** Free tier without `perils` only: which peril was chosen and why (docs/scoring.md §1.4). */
  peril_selection?: PerilSelection;
}

const HORIZON_VALUES = ['2030', '2050', '2080'] as const;

export function parseClimate(raw: Record<string, unknown>): { scenario: Scenario; horizon: Horizon | null } {
  const scenarios = list(raw, 'scenario', SCENARIOS);
  if (scenarios && scenarios.length > 1)
    throw invalidParameter('scenario', 'give one scenario: baseline, ssp245 or ssp585');
  const scenario: Scenario = scenarios?.[0] ?? 'baseline';
  const h = str(raw, 'horizon');
  if (h !== undefined && !(HORIZON_VALUES as readonly string[]).includes(h))
    throw invalidParameter('horizon', `"${h}" is not one of ${HORIZON_VALUES.join(', ')}`);
  const horizon = scenario === 'baseline' ? null : ((h === undefined ? 2050 : Number(h)) as Horizon);
  return { scenario, horizon };
}

export function parseScoreOptions(raw: Record<string, unknown>, caller: Pick<Caller, 'tier'> | boolean): ScoreOptions {
  // `true`/`false` (free tier or not) is the older call form, kept for callers that only know that.
  const tier = typeof caller === 'boolean' ? (caller ? 'free' : 'analyst') : caller.tier;
  const freeTier = tier === 'free';
  const perils = list(raw, 'perils', PERILS, PERIL_ALIASES) ?? null;
  const { scenario, horizon } = parseClimate(raw);
  const format = str(raw, 'format') ?? 'json';
  if (format !== 'json' && format !== 'oasis')
    throw invalidParameter('format', `"${format}" is not one of json, oasis`);
  if (format === 'oasis' && tier !== 'enterprise') {
    throw new CatintelError('insufficient_tier', `format=oasis needs the enterprise tier; this credential is ${tier}`);
  }
  if (freeTier && perils !== null && perils.length > 1) {
    throw new CatintelError(
      'insufficient_tier',
      `the free tier scores one peril per request (asked for ${perils.length}: ${perils.join(', ')}); pass one peril or use an API key`,
    );
  }
  return { perils, scenario, horizon, format, freeTier };
}

export function parseScorePoint(raw: Record<string, unknown>, caller: Pick<Caller, 'tier'> | boolean): ScorePointInput {
  const lat = num(raw, 'lat', { min: -90, max: 90 });
  const lng = num(raw, 'lng', { min: -180, max: 180 });
  return { lat, lng, ...parseScoreOptions(raw, caller) };
}

/**
 * Scores (lat, lng) under the options: the JSON body of /risk/score, or the Oasis rows for format=oasis.
 * `refuse` turns "outside the covered area" into the caller's 422 (its message names the point or event).
 */
export function scoreAt(
  lat: number,
  lng: number,
  o: ScoreOptions,
  oasis: { accNumber: string },
  refuse: (reason: string) => CatintelError,
  env?: Readonly<Record<string, string | undefined>>,
): HandlerResult<ScorePointBody | OasisPointBody> {
  const grid = loadBaselineGrid();
  const modelDamage = loadModelDamage(env?.CATINTEL_MODEL_DAMAGE);
  let perils = o.perils ?? undefined;
  let selection: PerilSelection | undefined;
  if (o.freeTier && perils === undefined) {
    selection = defaultPeril(grid, lat, lng, o.scenario, o.horizon, modelDamage) ?? undefined;
    perils = selection ? [selection.peril] : undefined;
  }
  const r = scorePoint(grid, { lat, lng, perils, scenario: o.scenario, horizon: o.horizon, modelDamage });
  if (!r.covered) throw refuse(r.reason);
  if (o.format === 'oasis') {
    const cell = cellAt(grid, lat, lng);
    return {
      body: oasisPointBody({
        lat: r.lat,
        lng: r.lng,
        cell,
        country: countryOfFips(grid.header.counties.fips[grid.county[cell]]),
        accNumber: oasis.accNumber,
        scenario: r.scenario,
        horizon: r.horizon,
        modelVersion: grid.header.modelVersion,
        perils: r.perils,
      }),
    };
  }
  const body: ScorePointBody = { lat: r.lat, lng: r.lng, scenario: r.scenario, horizon: r.horizon, perils: r.perils };
  if (selection) body.peril_selection = selection;
  return { body };
}

export const SCORE_OPTIONS = [
  { flags: '--perils <perils>', description: `comma list of ${PERILS.join(', ')} (default all)` },
  { flags: '--scenario <scenario>', description: 'baseline (default), ssp245 or ssp585' },
  { flags: '--horizon <year>', description: '2030, 2050 (default for SSPs) or 2080' },
];

export const riskScore = defineHandler<ScorePointInput, ScorePointBody | OasisPointBody>({
  name: 'risk.score',
  summary: 'Climate-adjusted hazard scores (0.00-10.00) for a point, per peril, with score_components',
  http: { method: 'GET', path: '/risk/score', access: 'free', accessByQuery: { format: { oasis: 'enterprise' } } },
  cli: {
    command: ['score', 'point'],
    options: [
      { flags: '--lat <lat>', description: 'latitude, WGS84 degrees' },
      { flags: '--lng <lng>', description: 'longitude, WGS84 degrees' },
      ...SCORE_OPTIONS,
      { flags: '--format <format>', description: 'json (default) or oasis (OED location row + keys rows)' },
    ],
    examples: [
      'catintel score point --lat 25.77 --lng -80.19',
      'catintel score point --lat 37.77 --lng -122.42 --perils earthquake,wildfire --scenario ssp585 --horizon 2080 --json',
      'catintel score point --lat 29.76 --lng -95.37 --format oasis --json',
    ],
  },
  storeless: true,
  parse: (raw, caller) => parseScorePoint(raw, caller),
  async run(ctx, input) {
    const refuse = (reason: string) =>
      new CatintelError('validation_failed', reason, {
        errors: [
          { field: 'lat', message: reason },
          { field: 'lng', message: reason },
        ],
      });
    return scoreAt(input.lat, input.lng, input, { accNumber: 'risk-score' }, refuse, ctx.config?.env);
  },
});
