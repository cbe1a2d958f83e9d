/**
 * Riverine flood, extreme heat and winter storm below state level (docs/scoring.md §9): places in one state
 * that a user would compare must differ the way the data say, and the state's own level must survive the
 * redistribution. Drought stays a state value, and says so. From the committed baseline.
 */
import { describe, expect, it } from 'vitest';
import type { PerilScore } from '../src/domain/scoring/peril-score.js';
import { scoreAt as at, baselineGrid as grid } from './helpers/score-at.js';

const term = (s: PerilScore, name: string) => s.score_components.resolution.terms!.find((t) => t.term === name)!;

const HOUSTON = [29.76, -95.37] as const;
const MIDLAND = [32.0, -102.08] as const;
const AMARILLO = [35.2, -101.83] as const;
const WILKES_BARRE = [41.25, -75.88] as const;
const STATE_COLLEGE = [40.79, -77.86] as const;
const SAVANNAH = [32.08, -81.09] as const;
const ATLANTA = [33.75, -84.39] as const;
const PHOENIX = [33.45, -112.07] as const;

describe('riverine flood: forecast points with flood categories and tropical-cyclone rain', () => {
  it('Houston (Buffalo Bayou, the San Jacinto, Harvey) scores well above Midland on the dry Permian plateau, in the same state', () => {
    const h = at(...HOUSTON, 'riverine_flood');
    const m = at(...MIDLAND, 'riverine_flood');
    // Dozens of flood-category gauges within the 25 km kernel and a tropical storm every two years
    // against no gauge and no tropical storm: the local factor is several times larger.
    expect(term(h, 'flood_category_gauges').value!).toBeGreaterThan(20);
    expect(term(m, 'flood_category_gauges').value!).toBeLessThan(1);
    expect(term(h, 'tropical_cyclone_rain').value!).toBeGreaterThan(0.3);
    expect(h.score - m.score).toBeGreaterThan(2);
  });

  it('Wilkes-Barre on the Susquehanna (Agnes 1972, Lee 2011) scores above State College in the Ridge and Valley uplands', () => {
    const wb = at(...WILKES_BARRE, 'riverine_flood');
    const sc = at(...STATE_COLLEGE, 'riverine_flood');
    expect(term(wb, 'flood_category_gauges').value!).toBeGreaterThan(term(sc, 'flood_category_gauges').value!);
    expect(wb.score).toBeGreaterThan(sc.score + 0.5);
  });

  it('tropical-cyclone rain reaches the Georgia coast far more often than Atlanta', () => {
    expect(term(at(...SAVANNAH, 'riverine_flood'), 'tropical_cyclone_rain').value!).toBeGreaterThan(0.4);
    expect(term(at(...ATLANTA, 'riverine_flood'), 'tropical_cyclone_rain').value!).toBeLessThan(0.2);
  });

  it('says what varies and at what resolution', () => {
    const r = at(...HOUSTON, 'riverine_flood').score_components.resolution;
    expect(r.hazard_varies_by).toBe('cell');
    expect(r.terms!.map((t) => [t.term, t.varies_by, t.scale_km])).toEqual([
      ['nri_state_level', 'state', null],
      ['flood_category_gauges', 'cell', 25],
      ['tropical_cyclone_rain', 'cell', 200],
      ['local_factor', 'cell', 25],
    ]);
  });

  it('keeps each state at its NRI level apart from tropical rain: the population-weighted mean river factor over a state stays near 1', () => {
    // The river part of the factor (the local factor without its tropical-rain term, 1 + storms per year),
    // which is normalised within the state; the tropical-rain term lifts the whole state and is checked
    // against NFIP claims instead (docs/validation.md §7).
    const local = grid.channels.get('riverine_flood.local_factor')!;
    const tc = grid.channels.get('riverine_flood.tc_storms_per_year')!;
    const f = local.map((v, c) => v / (1 + tc[c]));
    const { fips, population } = grid.header.counties;
    const cellsPerCounty = new Map<number, number>();
    for (let c = 0; c < f.length; c++)
      cellsPerCounty.set(grid.county[c], (cellsPerCounty.get(grid.county[c]) ?? 0) + 1);
    for (const state of ['48', '42', '13', '06', '17']) {
      let wf = 0;
      let w = 0;
      for (let c = 0; c < f.length; c++) {
        const k = grid.county[c];
        if (fips[k].slice(0, 2) !== state) continue;
        const wc = (population[k] ?? 0) / cellsPerCounty.get(k)!;
        wf += wc * f[c];
        w += wc;
      }
      // Exactly 1 before the 1/50-4 cap; the cap and 16-bit storage move it by a few per cent at most.
      expect(wf / w, state).toBeGreaterThan(0.9);
      expect(wf / w, state).toBeLessThan(1.1);
    }
  });
});

describe('extreme heat and winter storm: latitude and the urban heat island', () => {
  it('Houston, southern and urban, scores above Amarillo for heat; Amarillo, 5.4 degrees further north on the High Plains, above Houston for winter storm', () => {
    expect(at(...HOUSTON, 'extreme_heat').score).toBeGreaterThan(at(...AMARILLO, 'extreme_heat').score);
    expect(at(...AMARILLO, 'winter_storm').score - at(...HOUSTON, 'winter_storm').score).toBeGreaterThan(1);
  });

  it('Phoenix carries an urban heat island of several degrees (Maricopa County, 4.4 million people); Midland County a smaller one', () => {
    const p = term(at(...PHOENIX, 'extreme_heat'), 'urban_heat_island').value!;
    expect(p).toBeGreaterThan(4);
    expect(term(at(...MIDLAND, 'extreme_heat'), 'urban_heat_island').value!).toBeLessThan(p);
  });
});

describe('drought: no data in hand resolves it below the state', () => {
  it('scores Houston and Amarillo alike and says it is a state value', () => {
    const h = at(...HOUSTON, 'drought');
    expect(at(...AMARILLO, 'drought').score).toBe(h.score);
    expect(h.score_components.resolution.hazard_varies_by).toBe('state');
    expect(h.score_components.resolution.terms!.map((t) => t.term)).toEqual(['nri_state_level']);
  });
});
