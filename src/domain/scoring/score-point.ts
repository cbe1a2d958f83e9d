/**
 * Score a point for one or more perils under a climate case: the use case behind GET /risk/score and
 * `catintel score`. Points outside US states and territories are refused with a reason (the handler
 * turns that into a 422 validation_failed, CONTRACT §6), never given a made-up score.
 */
import { climateCase, type Horizon, type Scenario } from '../climate.js';
import { cellAt, type HazardGrid } from './grid.js';
import { perilScore, perilScoreValue, type PerilScore } from './peril-score.js';
import { PERILS, type Peril } from './perils.js';

export interface ScorePointQuery {
  lat: number;
  lng: number;
  /** Perils to score, in the order wanted; all nine when omitted. */
  perils?: readonly Peril[];
  scenario: Scenario;
  /** Ignored for 'baseline'; defaults to 2050 for the SSP scenarios. */
  horizon?: Horizon | null;
}

export type ScorePointResult =
  | { covered: true; lat: number; lng: number; scenario: Scenario; horizon: Horizon | null; perils: PerilScore[] }
  | { covered: false; lat: number; lng: number; reason: string };

export function outsideCoverageMessage(lat: number, lng: number): string {
  return `lat=${lat}, lng=${lng} is outside the covered area (US states, DC and territories); scores exist only for points on or near US land`;
}

export function scorePoint(grid: HazardGrid, q: ScorePointQuery): ScorePointResult {
  const cell = cellAt(grid, q.lat, q.lng);
  if (cell < 0) return { covered: false, lat: q.lat, lng: q.lng, reason: outsideCoverageMessage(q.lat, q.lng) };
  const c = climateCase(q.scenario, q.horizon ?? null);
  const perils = (q.perils ?? PERILS).map((p) => perilScore(grid, cell, p, c));
  return { covered: true, lat: q.lat, lng: q.lng, scenario: c.scenario, horizon: c.horizon, perils };
}

/** The peril with the highest score at a covered point (free tier without `perils`, CONTRACT §6). Ties go to list order. */
export function highestPeril(grid: HazardGrid, lat: number, lng: number, scenario: Scenario, horizon: Horizon | null = null): Peril | null {
  const cell = cellAt(grid, lat, lng);
  if (cell < 0) return null;
  const c = climateCase(scenario, horizon);
  let best: Peril = PERILS[0];
  let bestScore = -1;
  for (const p of PERILS) {
    const s = perilScoreValue(grid, cell, p, c);
    if (s > bestScore) {
      best = p;
      bestScore = s;
    }
  }
  return best;
}
