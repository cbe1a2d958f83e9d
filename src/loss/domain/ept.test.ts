import { describe, expect, it } from 'vitest';
import { EP_TYPE, epCurve } from './ept.js';

const RPS = [5000, 1000, 500, 250, 200, 150, 100, 75, 50, 30, 25, 20, 10, 5, 2];

describe('EP curves as Oasis lec computes them', () => {
  it('every ranked point without a return-period list: RP = P / rank and TVaR is the running mean', () => {
    const { rows, tvar } = epCurve(Float64Array.from([10, 30, 20]), 100, undefined, 1, 1, EP_TYPE.OEP);
    expect(rows.map((r) => [r.returnPeriod, r.loss])).toEqual([
      [100, 30],
      [50, 20],
      [100 / 3, 10],
    ]);
    expect(tvar.map((r) => r.loss)).toEqual([30, 25, 20]);
    expect(tvar.every((r) => r.epType === EP_TYPE.OEP_TVAR)).toBe(true);
  });

  it('drops return periods above P, interpolates between ranked points, 0 past the last, TVaR >= loss', () => {
    const values = Float64Array.from([1000, 800, 600, 400, 200, 100, 50]);
    const { rows, tvar } = epCurve(values, 1000, RPS, 1, 1, EP_TYPE.AEP);
    expect(rows[0].returnPeriod).toBe(1000);
    expect(rows.map((r) => r.returnPeriod)).not.toContain(5000);
    expect(rows.find((r) => r.returnPeriod === 500)!.loss).toBe(800);
    // 250 lies between rank 3 (333.3) and rank 4 (250): exactly rank 4.
    expect(rows.find((r) => r.returnPeriod === 250)!.loss).toBe(400);
    // 300 is not requested; 150 lies between rank 6 (166.7, 100) and rank 7 (142.9, 50): linear in RP.
    const rp150 = ((150 - 1000 / 7) * (100 - 50)) / (1000 / 6 - 1000 / 7) + 50;
    expect(rows.find((r) => r.returnPeriod === 150)!.loss).toBeCloseTo(rp150, 9);
    expect(rows.find((r) => r.returnPeriod === 2)!.loss).toBe(0);
    for (const t of tvar)
      expect(t.loss).toBeGreaterThanOrEqual(rows.find((r) => r.returnPeriod === t.returnPeriod)!.loss - 1e-9);
    // monotone: loss does not increase as the return period falls
    for (let i = 1; i < rows.length; i++) expect(rows[i].loss).toBeLessThanOrEqual(rows[i - 1].loss);
  });
});
