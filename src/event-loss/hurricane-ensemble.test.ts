import { describe, expect, it } from 'vitest';
import { landGrid } from '../models/hurricane/land-grid.js';
import { stormEnsemble, type ObservedFix } from './hurricane-ensemble.js';
import { trackSigmaKm } from './nhc-forecast-errors.js';

/** A storm in the open Gulf moving due north at 0.1°/h. */
const FIXES: ObservedFix[] = [0, 6, 12].map((h) => ({
  at: new Date(Date.UTC(2022, 8, 27, h)).toISOString(),
  lat: 22 + h * 0.1,
  lng: -87,
  windKt: 100,
  pressureMb: 955,
  rmwNm: 20,
}));

describe('stormEnsemble', () => {
  const grid = landGrid();
  const e = stormEnsemble(FIXES, null, { members: 400, seed: 3, grid, forecast: true });

  it('every member starts with the observed fixes, then persistence for 72 h', () => {
    expect(e.forecast).toBe('persistence');
    expect(e.forecastHours).toBe(72);
    for (const m of e.members.slice(0, 5)) expect(m.fixes.slice(0, 3)).toEqual(e.observed.fixes);
  });

  it("spreads the 24-hour position across the motion by NHC's track σ", () => {
    const at24 = e.members.map((m) => m.fixes[3 + 23]);
    const lngs = at24.map((f) => f.lng);
    const mean = lngs.reduce((s, x) => s + x, 0) / lngs.length;
    const sd = Math.sqrt(lngs.reduce((s, x) => s + (x - mean) ** 2, 0) / (lngs.length - 1));
    const sdKm = sd * 111.195 * Math.cos((24.6 * Math.PI) / 180);
    expect(Math.abs(mean + 87)).toBeLessThan(0.1);
    expect(sdKm / trackSigmaKm(24)).toBeGreaterThan(0.85);
    expect(sdKm / trackSigmaKm(24)).toBeLessThan(1.15);
  });

  it('has no forecast for a storm that is over: every member is the observed track', () => {
    const over = stormEnsemble(FIXES, null, { members: 3, seed: 3, grid, forecast: false });
    expect(over.forecast).toBe('none');
    for (const m of over.members) expect(m.fixes).toEqual(over.observed.fixes);
  });
});
