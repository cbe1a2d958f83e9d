/**
 * Score a point for one or more perils under a climate case: the use case behind GET /risk/score and
 * `catintel score`. Points outside US states and territories are refused with a reason (the handler
 * turns that into a 422 validation_failed, docs/contract.md#scores), never given a made-up score.
 */
import { climateCase, type Horizon, type Scenario } from '../climate.js';
import { perilMultipliers } from './climate-multipliers.js';
import { damageRatioAt } from './damage-ratio-source.js';
import type { ModelDamageTable } from './model-damage.js';
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
  /** The model packages' damage ratios (data/model-damage/); null or unset: the baseline's, said so in each score. */
  modelDamage?: ModelDamageTable | null;
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
  const at = { table: q.modelDamage ?? null, lat: q.lat, lng: q.lng };
  const perils = (q.perils ?? PERILS).map((p) => perilScore(grid, cell, p, c, at));
  return { covered: true, lat: q.lat, lng: q.lng, scenario: c.scenario, horizon: c.horizon, perils };
}

/** Why the free tier got the peril it got (docs/contract.md#scores: `perils` omitted on free gives one peril). */
export interface PerilSelection {
  rule: 'highest_expected_annual_damage_ratio' | 'highest_score';
  peril: Peril;
  reason: string;
  /** Every peril's expected annual damage ratio here (1/yr, null where none is defined), highest first, and whether the model or the baseline gave it. */
  candidates: {
    peril: Peril;
    expected_annual_damage_ratio: number | null;
    source: 'model' | 'baseline' | 'none';
    score: number;
  }[];
}

const sig3 = (x: number) => Number(x.toPrecision(3));

/**
 * The free tier's default peril at a covered point: the one with the highest expected annual damage ratio
 * (damage-ratio-source.ts: the model packages' for hurricane wind and earthquake), a scale on which perils are comparable; scores are not (an NRI state-relative score
 * runs higher than a catalog one at the same place, docs/scoring.md §1). Where no peril has a positive
 * ratio, the highest score. Ties go to list order. Null outside coverage.
 */
export function defaultPeril(
  grid: HazardGrid,
  lat: number,
  lng: number,
  scenario: Scenario,
  horizon: Horizon | null = null,
  modelDamage: ModelDamageTable | null = null,
): PerilSelection | null {
  const cell = cellAt(grid, lat, lng);
  if (cell < 0) return null;
  const c = climateCase(scenario, horizon);
  const at = { table: modelDamage, lat, lng };
  const candidates = PERILS.map((peril) => {
    const d = damageRatioAt(grid, cell, peril, perilMultipliers(grid, cell, peril, c).damaging, at);
    const eadr = d.value;
    return {
      peril,
      expected_annual_damage_ratio: Number.isFinite(eadr) ? sig3(eadr) : null,
      source: d.source.kind,
      score: perilScoreValue(grid, cell, peril, c),
      raw: eadr,
    };
  });
  const byRatio = [...candidates].sort(
    (a, b) => (Number.isFinite(b.raw) ? b.raw : -1) - (Number.isFinite(a.raw) ? a.raw : -1),
  );
  const list = byRatio.map(({ raw: _raw, ...rest }) => rest);
  const top = byRatio[0];
  if (Number.isFinite(top.raw) && top.raw > 0) {
    const next = byRatio[1];
    return {
      rule: 'highest_expected_annual_damage_ratio',
      peril: top.peril,
      reason:
        `${top.peril} has the highest expected annual damage ratio here (${sig3(top.raw)} of building value per year` +
        (next && Number.isFinite(next.raw) ? `; next ${next.peril}, ${sig3(next.raw)}` : '') +
        '); the free tier scores one peril per request: ask for another with perils',
      candidates: list,
    };
  }
  const best = [...candidates].sort((a, b) => b.score - a.score)[0];
  return {
    rule: 'highest_score',
    peril: best.peril,
    reason: `no peril has a positive expected annual damage ratio here, so the highest score: ${best.peril} (${best.score}); ask for another with perils`,
    candidates: list,
  };
}
