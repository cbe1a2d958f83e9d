import { describe, expect, it } from 'vitest';
import { correlatedAtMostBelow, fromNorm, normCdf, normPpf, toNorm } from './normal.js';

describe('standard normal cdf and inverse (scipy.stats.norm reference values)', () => {
  it('cdf', () => {
    expect(normCdf(0)).toBe(0.5);
    expect(normCdf(1)).toBeCloseTo(0.8413447460685429, 15);
    expect(normCdf(-1.96)).toBeCloseTo(0.024997895148220435, 16);
    expect(normCdf(-8) / 6.22096057427178e-16).toBeCloseTo(1, 12);
  });

  it('ppf inverts cdf, in the tails too', () => {
    expect(normPpf(0.975)).toBeCloseTo(1.959963984540054, 13);
    expect(normPpf(1e-16) / -8.222082216130435).toBeCloseTo(1, 12);
    for (const p of [1e-10, 0.001, 0.3, 0.5, 0.77, 0.999]) expect(normCdf(normPpf(p)) / p).toBeCloseTo(1, 12);
  });
});

describe('correlatedAtMostBelow: the draws that surely land at or under a cdf value', () => {
  it('every uniform at or below the answer maps to at most c, and a little above it some map higher', () => {
    let seed = 7;
    const rand = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let trial = 0; trial < 2000; trial++) {
      const rho = 0.05 + 0.9 * rand();
      const x = Math.sqrt(rho) * toNorm(rand());
      const b = Math.sqrt(1 - rho);
      const c = Math.fround(rand());
      const upTo = correlatedAtMostBelow(x, b, c);
      const map = (u: number) => fromNorm(x + b * toNorm(u));
      if (upTo < 0) {
        // Refused only when at most a sliver of draws would land under c.
        expect(map(0.03)).toBeGreaterThan(c - 1e-9);
        continue;
      }
      // Below the answer, at random and right under it and around the tail where toNorm changes method.
      for (const u of [upTo, upTo * (1 - 1e-12), upTo * rand(), 0.025 - 1e-9, 0.025, 1e-12, 1 - 1e-12, 1].filter((u) => u > 0 && u <= upTo)) {
        expect(map(u)).toBeLessThanOrEqual(c);
      }
      if (upTo < 1 - 1e-6) expect(map(Math.min(1, upTo + 1e-5))).toBeGreaterThan(c - 1e-9);
    }
  });
});
