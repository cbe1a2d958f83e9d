import { describe, expect, it } from 'vitest';
import { normalCdfExact as normCdf, normalPpf as normPpf } from '../../lib/numerics/normal-exact.js';

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
