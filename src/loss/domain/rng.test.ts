import { describe, expect, it } from 'vitest';
import { damageHash, draws, seedOf } from './rng.js';

// Reference values printed by oasislmf 2.5.8 (pytools gul/random.py) for the same seeds.
describe("gulmc's random numbers", () => {
  it('generate_hash(group 833720067, event 1) is the seed PiWind item 1 draws with', () => {
    expect(seedOf(damageHash, 833720067, 1)).toBe(1269801216);
  });

  it('Latin hypercube on Philox4x32-7 (generator 2), 5 samples, two seeds (one above 2^32)', () => {
    const a = new Float64Array(5);
    draws(1269801216, 5, a);
    expect([...a].map((v) => v.toFixed(8))).toEqual([
      '0.48625956',
      '0.78277368',
      '0.23487957',
      '0.08555963',
      '0.86053949',
    ]);
    draws(12345678901, 5, a);
    expect([...a].map((v) => v.toFixed(8))).toEqual([
      '0.17333592',
      '0.55240450',
      '0.90412899',
      '0.24905039',
      '0.61531913',
    ]);
  });
});
