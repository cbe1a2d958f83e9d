/**
 * Figures for docs/validation.md (scripts/validate-scores.ts prints them): Spearman rank correlations
 * between our baseline scores and FEMA NRI, and an earthquake-site ranking. Kept apart from the build:
 * nothing here feeds the committed grid.
 */
import { climateCase } from '../domain/climate.js';
import { cellAt, type HazardGrid } from '../domain/scoring/grid.js';
import { perilScoreValue } from '../domain/scoring/peril-score.js';
import { PERILS, type Peril } from '../domain/scoring/perils.js';
import type { PopulationCentre } from '../reference-data/census.js';
import { nriNumber, type NriState } from '../reference-data/nri.js';
import { spearman } from '../lib/stats.js';

export interface CountyScores {
  centre: PopulationCentre;
  scores: Record<Peril, number>;
}

export function scoreCountyCentres(grid: HazardGrid, centres: PopulationCentre[]): CountyScores[] {
  const base = climateCase('baseline', null);
  const out: CountyScores[] = [];
  for (const c of centres) {
    const cell = cellAt(grid, c.lat, c.lng);
    if (cell < 0) continue;
    const scores = {} as Record<Peril, number>;
    for (const p of PERILS) scores[p] = perilScoreValue(grid, cell, p, base);
    out.push({ centre: c, scores });
  }
  return out;
}

/** Population-weighted mean score per state (FIPS). */
export function stateMeans(counties: CountyScores[], peril: Peril): Map<string, number> {
  const acc = new Map<string, [number, number]>();
  for (const c of counties) {
    const st = c.centre.fips.slice(0, 2);
    const a = acc.get(st) ?? [0, 0];
    a[0] += c.scores[peril] * c.centre.population;
    a[1] += c.centre.population;
    acc.set(st, a);
  }
  return new Map([...acc].filter(([, [, w]]) => w > 0).map(([k, [s, w]]) => [k, s / w]));
}

/** The NRI field each peril is compared with (the hazard's expected annual loss rate, or score). */
export const NRI_COMPARISON: Record<Peril, { prefix: string; lossField: string }> = {
  hurricane_wind: { prefix: 'HRCN', lossField: 'ALRB' },
  storm_surge: { prefix: 'CFLD', lossField: 'ALRB' },
  earthquake: { prefix: 'ERQK', lossField: 'ALRB' },
  tornado: { prefix: 'TRND', lossField: 'ALRB' },
  wildfire: { prefix: 'WFIR', lossField: 'ALRB' },
  riverine_flood: { prefix: 'IFLD', lossField: 'ALRB' },
  extreme_heat: { prefix: 'HWAV', lossField: 'ALRP' },
  drought: { prefix: 'DRGT', lossField: 'ALRA' },
  winter_storm: { prefix: 'WNTW', lossField: 'ALRB' },
};

export interface StateComparison {
  peril: Peril;
  states: number;
  rhoLossRate: number;
  rhoEalScore: number;
}

/** ρ between our state means and NRI's loss rate and EAL score, over states where NRI has both numbers. */
export function compareStates(counties: CountyScores[], nri: Map<string, NriState>, peril: Peril): StateComparison {
  const means = stateMeans(counties, peril);
  const { prefix, lossField } = NRI_COMPARISON[peril];
  const ours: number[] = [];
  const loss: number[] = [];
  const eals: number[] = [];
  for (const [fips, m] of [...means].sort((a, b) => a[0].localeCompare(b[0]))) {
    const l = nriNumber(nri.get(fips), `${prefix}_${lossField}`);
    const e = nriNumber(nri.get(fips), `${prefix}_EALS`);
    if (!Number.isFinite(l) || !Number.isFinite(e)) continue;
    ours.push(m);
    loss.push(l);
    eals.push(e);
  }
  return { peril, states: ours.length, rhoLossRate: spearman(ours, loss), rhoEalScore: spearman(ours, eals) };
}
