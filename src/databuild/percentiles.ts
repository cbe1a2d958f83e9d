/**
 * National percentiles of each peril's baseline score, population-weighted over the 2020 county centres
 * of population: docs/methods.md#score-mappings asks for the empirical CDF over tract centroids, which are roughly
 * equal-population units, so population weights on counties approximate it with the data we have.
 */
import { climateCase } from '../domain/climate.js';
import { cellAt, type HazardGrid } from '../domain/scoring/grid.js';
import { perilScoreValue } from '../domain/scoring/peril-score.js';
import { PERILS } from '../domain/scoring/perils.js';
import type { PopulationCentre } from '../reference-data/census.js';

export function populationPercentiles(grid: HazardGrid, centres: PopulationCentre[]): Record<string, number[]> {
  const base = climateCase('baseline', null);
  const located = centres
    .map((c) => ({ cell: cellAt(grid, c.lat, c.lng), w: c.population }))
    .filter((x) => x.cell >= 0 && x.w > 0);
  const out: Record<string, number[]> = {};
  for (const p of PERILS) {
    const pts = located
      .map((x) => ({ s: perilScoreValue(grid, x.cell, p, base), w: x.w }))
      .sort((a, b) => a.s - b.s || a.w - b.w);
    const total = pts.reduce((t, x) => t + x.w, 0);
    const q: number[] = [];
    let k = 0;
    let cum = pts.length > 0 ? pts[0].w : 0;
    for (let pct = 0; pct <= 100; pct++) {
      const target = (pct / 100) * total;
      while (k < pts.length - 1 && cum < target) cum += pts[++k].w;
      q.push(pts.length > 0 ? pts[k].s : 0);
    }
    out[p] = q;
  }
  return out;
}
