/** PAGER fatality rates (Jaiswal & Wald 2010, US) against docs/methods.md#damage-functions and the lower-bound banding. */
import { describe, expect, it } from 'vitest';
import { normalCdfRelativeTail as normalCdf } from '../../lib/numerics/normal.js';
import { fatalityRate, pagerEstimate } from './pager.js';

describe('PAGER fatality model', () => {
  it('gives the US rates of docs/methods.md#damage-functions (VII 7e-6, VIII 2.7e-5, IX 8.3e-5, X 2.1e-4)', () => {
    expect(fatalityRate(7)).toBeCloseTo(7e-6, 6);
    expect(fatalityRate(8) / 2.7e-5).toBeCloseTo(1, 1);
    expect(fatalityRate(9) / 8.3e-5).toBeCloseTo(1, 1);
    expect(fatalityRate(10) / 2.1e-4).toBeCloseTo(1, 1);
  });

  it('keeps the normal tail accurate (Φ(-5) = 2.8665e-7)', () => {
    expect(normalCdf(-5) / 2.8665157e-7).toBeCloseTo(1, 5);
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959964)).toBeCloseTo(0.975, 6);
  });

  it('charges each band between rings its lower bound, innermost first', () => {
    const e = pagerEstimate([
      { mmi: 4, population: 10_000_000 },
      { mmi: 8, population: 200_000 },
      { mmi: 6, population: 2_000_000 },
    ]);
    expect(e.bands.map((b) => [b.mmi_from, b.mmi_to, b.population])).toEqual([
      [8, null, 200_000],
      [6, 8, 1_800_000],
      [4, 6, 8_000_000],
    ]);
    const byHand = 200_000 * fatalityRate(8) + 1_800_000 * fatalityRate(6) + 8_000_000 * fatalityRate(4);
    expect(e.fatalities_lower_bound).toBe(Math.round(byHand));
    expect(e.alert_level).toBe(Math.round(byHand) >= 1 ? 'yellow' : 'green');
  });
});
