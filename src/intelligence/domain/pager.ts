/**
 * PAGER-style earthquake impact from the population inside MMI rings (docs/methods.md#damage-functions):
 * the fatality rate at shaking intensity S is the empirical model of Jaiswal & Wald (2010),
 *
 *   ν(S) = Φ( ln(S / θ) / β ),   United States: θ = 46.155, β = 0.434   (usgs/pager losspager/data/fatality.xml)
 *
 * Our rings give population at or above three MMI levels (VIII, VI, IV), not PAGER's 1-km MMI grid, so each band
 * (between one ring and the next inner one) is charged the rate of its lower bound: the estimate is a LOWER
 * BOUND of PAGER's, stated as such. Alert levels (fatalities 0 / 1-99 / 100-999 / ≥1000: green, yellow, orange,
 * red) are PAGER's bands as docs/methods.md gives them (marked unverified there). Pure.
 */

import { normalCdfRelativeTail } from '../../lib/numerics/normal.js';

// The fatality rates reach 1e-8 at MMI IV: a cdf whose error is relative keeps them (lib/numerics/normal.ts).
export const PAGER_US_FATALITY = { theta: 46.155, beta: 0.434 } as const;

export function fatalityRate(mmi: number, k = PAGER_US_FATALITY): number {
  return mmi <= 0 ? 0 : normalCdfRelativeTail(Math.log(mmi / k.theta) / k.beta);
}

export interface MmiRingPopulation {
  mmi: number;
  population: number;
}

export interface PagerEstimate {
  bands: { mmi_from: number; mmi_to: number | null; population: number; fatality_rate: number; fatalities: number }[];
  fatalities_lower_bound: number;
  alert_level: 'green' | 'yellow' | 'orange' | 'red';
}

/** `rings`: population inside each MMI ring (cumulative), any order. */
export function pagerEstimate(rings: MmiRingPopulation[]): PagerEstimate {
  const r = [...rings].sort((a, b) => b.mmi - a.mmi); // innermost (highest MMI) first
  const bands = r.map((ring, i) => {
    const inner = i > 0 ? r[i - 1].population : 0;
    const population = Math.max(0, ring.population - inner);
    const rate = fatalityRate(ring.mmi);
    return {
      mmi_from: ring.mmi,
      mmi_to: i > 0 ? r[i - 1].mmi : null,
      population,
      fatality_rate: Number(rate.toPrecision(3)),
      fatalities: population * rate,
    };
  });
  const total = bands.reduce((s, b) => s + b.fatalities, 0);
  const rounded = Math.round(total);
  const alert = rounded >= 1000 ? 'red' : rounded >= 100 ? 'orange' : rounded >= 1 ? 'yellow' : 'green';
  return {
    bands: bands.map((b) => ({ ...b, fatalities: Math.round(b.fatalities * 10) / 10 })),
    fatalities_lower_bound: rounded,
    alert_level: alert,
  };
}
