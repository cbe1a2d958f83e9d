/**
 * GET /risk/score and `catintel score`: climate-adjusted hazard scores for one point (CONTRACT §6,
 * docs/scoring.md). Reads the embedded hazard baseline (data/baseline), not the store.
 * Free tier: one peril per request; without `perils` it gets the highest-scoring peril; asking for more
 * than one is 403 insufficient_tier. Points outside US states and territories are 422.
 * Not yet: format=oasis (enterprise) — refused with a clear message until the Oasis writer exists.
 */
import { SCENARIOS, type Horizon, type Scenario } from '../domain/climate.js';
import { PERILS, type Peril } from '../domain/scoring/perils.js';
import { highestPeril, scorePoint } from '../domain/scoring/score-point.js';
import type { PerilScore } from '../domain/scoring/peril-score.js';
import { loadBaselineGrid } from '../databuild/load-baseline.js';
import { CatintelError, invalidParameter } from '../errors.js';
import { list, num, str } from './params.js';
import { defineHandler } from './types.js';

export interface ScorePointInput {
  lat: number;
  lng: number;
  perils: Peril[] | null; // null: all (paid tiers) or the highest-scoring one (free)
  scenario: Scenario;
  horizon: Horizon | null;
  freeTier: boolean;
}

export interface ScorePointBody {
  lat: number;
  lng: number;
  scenario: Scenario;
  horizon: Horizon | null;
  perils: PerilScore[];
}

const HORIZON_VALUES = ['2030', '2050', '2080'] as const;

export function parseScorePoint(raw: Record<string, unknown>, freeTier: boolean): ScorePointInput {
  const lat = num(raw, 'lat', { min: -90, max: 90 });
  const lng = num(raw, 'lng', { min: -180, max: 180 });
  const perils = list(raw, 'perils', PERILS) ?? null;
  const scenarios = list(raw, 'scenario', SCENARIOS);
  if (scenarios && scenarios.length > 1) throw invalidParameter('scenario', 'give one scenario: baseline, ssp245 or ssp585');
  const scenario: Scenario = scenarios?.[0] ?? 'baseline';
  const h = str(raw, 'horizon');
  if (h !== undefined && !(HORIZON_VALUES as readonly string[]).includes(h)) throw invalidParameter('horizon', `"${h}" is not one of ${HORIZON_VALUES.join(', ')}`);
  const horizon = scenario === 'baseline' ? null : ((h === undefined ? 2050 : Number(h)) as Horizon);
  const format = str(raw, 'format') ?? 'json';
  if (format !== 'json') {
    throw invalidParameter('format', format === 'oasis' ? 'format=oasis is not available yet; use format=json' : `"${format}" is not one of json, oasis`);
  }
  if (freeTier && perils !== null && perils.length > 1) {
    throw new CatintelError('insufficient_tier', `the free tier scores one peril per request (asked for ${perils.length}: ${perils.join(', ')}); pass one peril or use an API key`);
  }
  return { lat, lng, perils, scenario, horizon, freeTier };
}

export const riskScore = defineHandler<ScorePointInput, ScorePointBody>({
  name: 'risk.score',
  summary: 'Climate-adjusted hazard scores (0.00-10.00) for a point, per peril, with score_components',
  http: { method: 'GET', path: '/risk/score', access: 'free', accessByQuery: { format: { oasis: 'enterprise' } } },
  cli: {
    command: ['score', 'point'],
    options: [
      { flags: '--lat <lat>', description: 'latitude, WGS84 degrees' },
      { flags: '--lng <lng>', description: 'longitude, WGS84 degrees' },
      { flags: '--perils <perils>', description: `comma list of ${PERILS.join(', ')} (default all)` },
      { flags: '--scenario <scenario>', description: 'baseline (default), ssp245 or ssp585' },
      { flags: '--horizon <year>', description: '2030, 2050 (default for SSPs) or 2080' },
      { flags: '--format <format>', description: 'json (default)' },
    ],
    examples: ['catintel score point --lat 25.77 --lng -80.19', 'catintel score point --lat 37.77 --lng -122.42 --perils earthquake,wildfire --scenario ssp585 --horizon 2080 --json'],
  },
  storeless: true,
  parse: (raw, caller) => parseScorePoint(raw, caller.tier === 'free'),
  async run(_ctx, input) {
    const grid = loadBaselineGrid();
    let perils = input.perils ?? undefined;
    if (input.freeTier && perils === undefined) {
      const best = highestPeril(grid, input.lat, input.lng, input.scenario, input.horizon);
      perils = best ? [best] : undefined;
    }
    const r = scorePoint(grid, { lat: input.lat, lng: input.lng, perils, scenario: input.scenario, horizon: input.horizon });
    if (!r.covered) throw new CatintelError('validation_failed', r.reason, { errors: [{ field: 'lat', message: r.reason }, { field: 'lng', message: r.reason }] });
    return { body: { lat: r.lat, lng: r.lng, scenario: r.scenario, horizon: r.horizon, perils: r.perils } };
  },
});
