import { describe, expect, it } from 'vitest';
import { binomialCdf, clopperPearson } from './binomial.js';

describe('Clopper–Pearson interval', () => {
  it('matches published exact limits', () => {
    // 0 of n: the upper limit has the closed form 1 − (α/2)^(1/n).
    const z = clopperPearson(0, 125, 0.9);
    expect(z.lower).toBe(0);
    expect(z.upper).toBeCloseTo(1 - 0.05 ** (1 / 125), 6);
    // n of n: the lower limit is (α/2)^(1/n).
    expect(clopperPearson(10, 10, 0.9).lower).toBeCloseTo(0.05 ** (1 / 10), 6);
    // 5 of 125 at 90 %: the Beta(5, 121) 5 % and Beta(6, 120) 95 % quantiles, 0.015891 and 0.082260
    // (computed independently by integrating the Beta density; R: qbeta(0.05, 5, 121), qbeta(0.95, 6, 120)).
    const f = clopperPearson(5, 125, 0.9);
    expect(f.lower).toBeCloseTo(0.015891, 5);
    expect(f.upper).toBeCloseTo(0.08226, 5);
  });

  it('brackets the point estimate and widens with a higher level', () => {
    const a = clopperPearson(12, 125, 0.9);
    const b = clopperPearson(12, 125, 0.99);
    expect(a.lower).toBeLessThan(12 / 125);
    expect(a.upper).toBeGreaterThan(12 / 125);
    expect(b.lower).toBeLessThan(a.lower);
    expect(b.upper).toBeGreaterThan(a.upper);
  });

  it('binomial CDF sums to one', () => {
    expect(binomialCdf(125, 125, 0.3)).toBe(1);
    expect(binomialCdf(0, 3, 0.5)).toBeCloseTo(0.125, 12);
  });
});
