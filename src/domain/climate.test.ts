import { describe, expect, it } from 'vitest';
import { HORIZONS, climateCase, wildfireEastFactor, type ClimateFactor } from './climate.js';

const FACTORS: ClimateFactor[] = [
  'tc_frequency_all',
  'tc_frequency_cat45',
  'tc_vmax',
  'surge_frequency',
  'heat_frequency',
  'precip_frequency',
  'drought_frequency',
  'wildfire_west',
  'winter_frequency',
];

describe('climate factors (docs/methods.md#climate-adjustment)', () => {
  it('are all 1 under the baseline scenario, whatever the horizon', () => {
    const c = climateCase('baseline', 2080);
    expect(c.horizon).toBeNull();
    for (const f of FACTORS) expect(c.factor(f)).toBe(1);
  });

  it('match the table: SSP5-8.5 2080 heat 3.29, wildfire capped at 4, Cat 4-5 1.17', () => {
    const c = climateCase('ssp585', 2080);
    expect(c.factor('heat_frequency')).toBe(3.29);
    expect(c.factor('wildfire_west')).toBe(4);
    expect(c.factor('tc_frequency_cat45')).toBe(1.17);
    expect(c.gwlC).toBe(3.9);
  });

  it('grow with the horizon for warming-driven perils and SSP5-8.5 >= SSP2-4.5', () => {
    for (const f of [
      'heat_frequency',
      'precip_frequency',
      'drought_frequency',
      'wildfire_west',
      'surge_frequency',
    ] as const) {
      for (const s of ['ssp245', 'ssp585'] as const) {
        const v = HORIZONS.map((h) => climateCase(s, h).factor(f));
        expect(v[0]).toBeLessThanOrEqual(v[1]);
        expect(v[1]).toBeLessThanOrEqual(v[2]);
      }
      for (const h of HORIZONS)
        expect(climateCase('ssp585', h).factor(f)).toBeGreaterThanOrEqual(climateCase('ssp245', h).factor(f));
    }
  });

  it('defaults the horizon to 2050 for SSP scenarios', () => {
    expect(climateCase('ssp245', null).horizon).toBe(2050);
  });

  it('keeps eastern wildfire within 1.0-1.2', () => {
    expect(wildfireEastFactor(1)).toBe(1);
    expect(wildfireEastFactor(4)).toBeCloseTo(1.2, 10);
  });
});
