import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../test/helpers/paths.js';
import { parseHazardGrid } from './grid.js';
import type { PerilScore } from './peril-score.js';
import { PERILS, type Peril } from './perils.js';
import { defaultPeril, scorePoint } from './score-point.js';
import { scoreTable } from './score-table.js';
import { cellAt } from './grid.js';
import type { Horizon, Scenario } from '../climate.js';

const grid = parseHazardGrid(new Uint8Array(fs.readFileSync(path.join(REPO_ROOT, 'data/baseline/hazard-grid.bin'))));

const CITY = {
  miami: [25.77, -80.19],
  houston: [29.76, -95.37],
  chicago: [41.88, -87.63],
  sanFrancisco: [37.77, -122.42],
  losAngeles: [34.05, -118.24],
  oklahomaCity: [35.47, -97.52],
  seattle: [47.61, -122.33],
  phoenix: [33.45, -112.07],
  denver: [39.74, -104.99],
  minneapolis: [44.98, -93.27],
  honolulu: [21.31, -157.86],
  anchorage: [61.22, -149.9],
  sanJuan: [18.47, -66.1],
  guam: [13.47, 144.75],
} as const;

function score(
  city: keyof typeof CITY,
  peril: Peril,
  scenario: Scenario = 'baseline',
  horizon: Horizon | null = null,
): PerilScore {
  const [lat, lng] = CITY[city];
  const r = scorePoint(grid, { lat, lng, perils: [peril], scenario, horizon });
  if (!r.covered) throw new Error(`${city} not covered`);
  return r.perils[0];
}

describe('scores a user would check', () => {
  it('hurricane wind: Miami > Houston > Chicago (= 0)', () => {
    expect(score('miami', 'hurricane_wind').score).toBeGreaterThan(score('houston', 'hurricane_wind').score);
    expect(score('houston', 'hurricane_wind').score).toBeGreaterThan(score('chicago', 'hurricane_wind').score);
    expect(score('chicago', 'hurricane_wind').score).toBe(0);
  });

  it('earthquake: San Francisco and Los Angeles > Houston and Miami', () => {
    for (const west of ['sanFrancisco', 'losAngeles'] as const) {
      for (const east of ['houston', 'miami'] as const)
        expect(score(west, 'earthquake').score).toBeGreaterThan(score(east, 'earthquake').score + 2);
    }
  });

  it('tornado: Oklahoma City > Chicago > Seattle', () => {
    expect(score('oklahomaCity', 'tornado').score).toBeGreaterThan(score('chicago', 'tornado').score);
    expect(score('chicago', 'tornado').score).toBeGreaterThan(score('seattle', 'tornado').score);
  });

  it('wildfire: Los Angeles > Chicago; storm surge: Miami > Denver (inland = 0)', () => {
    expect(score('losAngeles', 'wildfire').score).toBeGreaterThan(score('chicago', 'wildfire').score + 3);
    expect(score('miami', 'storm_surge').score).toBeGreaterThan(5);
    expect(score('denver', 'storm_surge').score).toBe(0);
  });

  it('heat: Phoenix > Seattle > Honolulu; winter storm: Anchorage and Minneapolis > Miami', () => {
    expect(score('phoenix', 'extreme_heat').score).toBeGreaterThan(score('seattle', 'extreme_heat').score);
    expect(score('seattle', 'extreme_heat').score).toBeGreaterThan(score('honolulu', 'extreme_heat').score);
    expect(score('anchorage', 'winter_storm').score).toBeGreaterThan(score('minneapolis', 'winter_storm').score);
    expect(score('minneapolis', 'winter_storm').score).toBeGreaterThan(score('miami', 'winter_storm').score + 5);
  });

  it('territories get scores: San Juan hurricane from HURDAT2, Guam hurricane from the NRI fallback', () => {
    expect(score('sanJuan', 'hurricane_wind').score).toBeGreaterThan(4);
    expect(score('sanJuan', 'hurricane_wind').score_components.frequency.method).toBe('catalog');
    const guam = score('guam', 'hurricane_wind');
    expect(guam.score).toBeGreaterThan(4);
    expect(guam.score_components.frequency.method).toBe('nri_state_fallback');
    expect(guam.score_components.confidence).toBe('low');
  });
});

describe('climate adjustment', () => {
  const hotter = (city: keyof typeof CITY, peril: Peril) => score(city, peril, 'ssp585', 2080);

  it('SSP5-8.5 2080 raises heat, wildfire and surge scores and the major-hurricane frequency', () => {
    expect(hotter('phoenix', 'wildfire').score).toBeGreaterThan(score('phoenix', 'wildfire').score);
    expect(hotter('seattle', 'extreme_heat').score).toBeGreaterThan(score('seattle', 'extreme_heat').score);
    expect(hotter('miami', 'storm_surge').score).toBeGreaterThan(score('miami', 'storm_surge').score);
    const h = hotter('miami', 'hurricane_wind');
    expect(h.score).toBeGreaterThan(score('miami', 'hurricane_wind').score);
    expect(h.score_components.climate_adjustment.severe_frequency_multiplier).toBeGreaterThan(1);
    expect(h.score_components.intensity.rp100!.value).toBeGreaterThan(
      score('miami', 'hurricane_wind').score_components.intensity.rp100!.value,
    );
  });

  it('leaves earthquake and tornado unchanged, lowers winter storms a little', () => {
    expect(hotter('sanFrancisco', 'earthquake').score).toBe(score('sanFrancisco', 'earthquake').score);
    expect(hotter('oklahomaCity', 'tornado').score).toBe(score('oklahomaCity', 'tornado').score);
    expect(hotter('minneapolis', 'winter_storm').score).toBeLessThan(score('minneapolis', 'winter_storm').score);
  });

  it('reports the baseline score and the delta, and grows with the horizon', () => {
    const s = hotter('phoenix', 'extreme_heat');
    const c = s.score_components;
    expect(c.baseline_score).toBe(score('phoenix', 'extreme_heat').score);
    expect(c.climate_adjustment.delta_score).toBeCloseTo(s.score - c.baseline_score, 6);
    const la = (h: Horizon) => score('losAngeles', 'wildfire', 'ssp245', h).score;
    expect(la(2030)).toBeLessThan(la(2050));
    expect(la(2050)).toBeLessThan(la(2080));
  });
});

describe('coverage', () => {
  it.each([
    ['the middle of the Atlantic', 35, -40],
    ['Paris', 48.86, 2.35],
    ['Toronto', 43.65, -79.38],
    ['50 km off Galveston in the Gulf', 28.9, -94.6],
    ['the middle of Lake Michigan', 43.5, -87.0],
  ])('refuses %s', (_name, lat, lng) => {
    const r = scorePoint(grid, { lat, lng, scenario: 'baseline' });
    expect(r.covered).toBe(false);
    if (!r.covered) expect(r.reason).toMatch(/outside the covered area/);
  });

  it.each([
    ['Key West', 24.555, -81.78],
    ['Adak, Aleutians', 51.88, -176.65],
    ['Attu, west of 180°', 52.93, 173.2],
    ['Pago Pago', -14.28, -170.7],
    ['St Croix', 17.73, -64.75],
    ['Saipan', 15.18, 145.75],
  ])('covers %s', (_name, lat, lng) => {
    expect(scorePoint(grid, { lat, lng, scenario: 'baseline' }).covered).toBe(true);
  });

  it('refuses non-finite coordinates rather than guessing', () => {
    expect(cellAt(grid, Number.NaN, -80)).toBe(-1);
    expect(cellAt(grid, 95, -80)).toBe(-1);
  });

  it('accepts longitudes written 0–360', () => {
    expect(cellAt(grid, 25.77, 360 - 80.19)).toBe(cellAt(grid, 25.77, -80.19));
  });
});

describe('score shape (docs/contract.md#scores)', () => {
  const r = scorePoint(grid, { lat: 29.76, lng: -95.37, scenario: 'ssp245', horizon: 2050 });

  it('scores all nine perils on 0.00–10.00 with two decimals and the documented component keys', () => {
    expect(r.covered).toBe(true);
    if (!r.covered) return;
    expect(r.perils.map((p) => p.peril)).toEqual([...PERILS]);
    for (const p of r.perils) {
      expect(p.score).toBeGreaterThanOrEqual(0);
      expect(p.score).toBeLessThanOrEqual(10);
      expect(Math.round(p.score * 100) / 100).toBe(p.score);
      expect(Object.keys(p.score_components).sort()).toEqual([
        'baseline_score',
        'climate_adjustment',
        'confidence',
        'exposure',
        'frequency',
        'intensity',
        'resolution',
        'vulnerability',
      ]);
      expect(p.ingested_at).toBe('2025-12-01T00:00:00Z');
      expect(p.source_url).toMatch(/^https:\/\//);
      expect(p.percentile === null || (p.percentile >= 0 && p.percentile <= 100)).toBe(true);
    }
  });

  it('names the county (Harris, TX) and its 2020 population', () => {
    if (!r.covered) return;
    expect(r.perils[0].score_components.exposure.county_fips).toBe('48201');
    expect(r.perils[0].score_components.exposure.county_population_2020).toBeGreaterThan(4_000_000);
  });

  it('every covered cell scores in range for every peril and climate case', () => {
    for (const [s, h] of [
      ['baseline', null],
      ['ssp245', 2030],
      ['ssp585', 2080],
    ] as const) {
      const t = scoreTable(grid, s, h);
      for (const p of PERILS) for (const v of t[p]) expect(v >= 0 && v <= 10).toBe(true);
    }
  }, 90_000); // millions of expectations: 13-32 s on a loaded machine

  it("picks the free tier's default peril by expected annual damage ratio, the one each place is known for", () => {
    const picks: Partial<Record<keyof typeof CITY, Peril>> = {
      miami: 'hurricane_wind',
      sanFrancisco: 'earthquake',
      losAngeles: 'earthquake',
      oklahomaCity: 'tornado',
      houston: 'hurricane_wind',
      seattle: 'earthquake',
      anchorage: 'earthquake',
      sanJuan: 'hurricane_wind',
      guam: 'hurricane_wind',
    };
    for (const [city, peril] of Object.entries(picks)) {
      const [lat, lng] = CITY[city as keyof typeof CITY];
      expect(defaultPeril(grid, lat, lng, 'baseline')?.peril, city).toBe(peril);
    }
    expect(defaultPeril(grid, 35, -40, 'baseline')).toBeNull();
  });

  it('reports an expected annual damage ratio for every peril with building losses, none for heat, drought and surge at a point', () => {
    const r = scorePoint(grid, { lat: 25.77, lng: -80.19, scenario: 'baseline' });
    if (!r.covered) throw new Error('not covered');
    const eadr = Object.fromEntries(
      r.perils.map((p) => [p.peril, p.score_components.vulnerability.expected_annual_damage_ratio]),
    );
    expect(eadr.extreme_heat).toBeNull();
    expect(eadr.drought).toBeNull();
    // Surge damage needs the building's elevation (damage-ratio-source.ts): none at a point, and the reason.
    expect(eadr.storm_surge).toBeNull();
    expect(
      r.perils.find((p) => p.peril === 'storm_surge')!.score_components.vulnerability.damage_ratio_source,
    ).toMatchObject({ kind: 'none' });
    for (const p of ['hurricane_wind', 'earthquake', 'tornado', 'wildfire', 'riverine_flood', 'winter_storm'])
      expect(eadr[p]).toBeGreaterThanOrEqual(0);
    // Miami's hurricane wind: about 0.5 % of building value a year, on NRI's level (Florida HRCN_ALRB 0.1 %)
    expect(eadr.hurricane_wind).toBeGreaterThan(2e-3);
    expect(eadr.hurricane_wind).toBeLessThan(1e-2);
    // the ratio follows the climate case, as the score does
    const hot = scorePoint(grid, {
      lat: 25.77,
      lng: -80.19,
      perils: ['hurricane_wind'],
      scenario: 'ssp585',
      horizon: 2080,
    });
    if (!hot.covered) throw new Error('not covered');
    const c = hot.perils[0].score_components;
    expect(c.climate_adjustment.frequency_multiplier).not.toBe(1);
    expect(c.vulnerability.expected_annual_damage_ratio! / eadr.hurricane_wind!).toBeCloseTo(
      c.climate_adjustment.frequency_multiplier,
      2,
    );
  });
});
