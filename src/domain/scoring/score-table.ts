/**
 * Bulk scoring fast path: every cell's score per peril for one climate case, computed once (~25k cells x
 * 9 perils) and memoised per grid, so scoring a million rows costs one cellAt and one array read per
 * row and peril. Scores are the same two-decimal values perilScore reports.
 */
import { climateCase, type Horizon, type Scenario } from '../climate.js';
import type { HazardGrid } from './grid.js';
import { perilScoreValue } from './peril-score.js';
import { PERILS, type Peril } from './perils.js';

export type ScoreTable = Record<Peril, Float64Array>;

const cache = new WeakMap<HazardGrid, Map<string, ScoreTable>>();

export function scoreTable(grid: HazardGrid, scenario: Scenario, horizon: Horizon | null = null): ScoreTable {
  const c = climateCase(scenario, horizon);
  const key = `${c.scenario}:${c.horizon ?? ''}`;
  let perGrid = cache.get(grid);
  if (!perGrid) cache.set(grid, (perGrid = new Map()));
  const hit = perGrid.get(key);
  if (hit) return hit;
  const table = {} as ScoreTable;
  for (const p of PERILS) {
    const a = new Float64Array(grid.nCells);
    for (let cell = 0; cell < grid.nCells; cell++) a[cell] = perilScoreValue(grid, cell, p, c);
    table[p] = a;
  }
  perGrid.set(key, table);
  return table;
}
