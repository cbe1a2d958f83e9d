import { describe, expect, it } from 'vitest';
import {
  combinedFrequencyScore,
  confidenceLevel,
  emanuelMdr,
  frequencyScore,
  intensityScore,
  pagerLossRate,
  percentileOf,
  relativePairScore,
} from './score-math.js';
import { normalCdf } from '../../lib/numerics/normal.js';

describe('docs/methods.md#score-mappings score mappings', () => {
  it('maps frequency by log decade: 1/yr 10, 1/10 7.5, 1/100 5, 1/1000 2.5, 1/10000 0', () => {
    expect(frequencyScore(1)).toBe(10);
    expect(frequencyScore(0.1)).toBeCloseTo(7.5, 10);
    expect(frequencyScore(0.01)).toBeCloseTo(5, 10);
    expect(frequencyScore(0.001)).toBeCloseTo(2.5, 10);
    expect(frequencyScore(1e-4)).toBe(0);
    expect(frequencyScore(0)).toBe(0);
    expect(frequencyScore(Number.NaN)).toBe(0);
    expect(frequencyScore(5)).toBe(10);
  });

  it('weights damaging 0.6 and severe 0.4', () => {
    expect(combinedFrequencyScore(0.1, 0.01)).toBeCloseTo(0.6 * 7.5 + 0.4 * 5, 10);
  });

  it('doubling a frequency adds 0.75 points (docs/methods.md#score-mappings)', () => {
    expect(frequencyScore(0.02) - frequencyScore(0.01)).toBeCloseTo(0.753, 3);
  });

  it('maps intensity between the damaging and extreme anchors', () => {
    expect(intensityScore(64, 64, 137)).toBe(0);
    expect(intensityScore(137, 64, 137)).toBe(10);
    expect(intensityScore(8, 6, 10)).toBe(5);
  });
});

describe('relative scores', () => {
  it('puts the anchors at 0 and 10 and averages the two halves', () => {
    expect(relativePairScore(1, 0, 1, 10, 0, 1)).toBe(5); // 0 and 1 on the two scales
    expect(relativePairScore(10, 0, 1, 10, 0, 1)).toBe(10);
    expect(relativePairScore(Number.NaN, 0, 1, 10 ** 0.5, 0, 1)).toBeCloseTo(5, 10);
    expect(relativePairScore(Number.NaN, 0, 1, Number.NaN, 0, 1)).toBe(0);
  });

  it('lets a very low loss rate pull down a very high event count', () => {
    expect(relativePairScore(100, 0, 1, 1e-6, 0, 1)).toBe(0.0 + 10 * ((2 - 1) / 2));
  });
});

describe('damage functions (docs/methods.md#damage-functions)', () => {
  it('PAGER US economic loss rate: 0.77 % at MMI VIII, 17.5 % at X', () => {
    expect(pagerLossRate(8)).toBeCloseTo(0.0077, 4);
    expect(pagerLossRate(10)).toBeCloseTo(0.175, 2);
  });

  it('Emanuel (2011): no damage at 50 kt (25.7 m/s threshold), half at V_half = 86 m/s', () => {
    expect(emanuelMdr(49)).toBe(0);
    expect(emanuelMdr(86 / 0.514444)).toBeCloseTo(0.5, 6);
  });

  it('normal CDF', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.96)).toBeCloseTo(0.975, 3);
    expect(normalCdf(-1.96)).toBeCloseTo(0.025, 3);
  });
});

describe('confidence and percentiles', () => {
  it('is low with fewer than 3 events or NRI-only data, medium otherwise at 25 km', () => {
    expect(confidenceLevel({ eventsUsed: 2, recordYears: 100, resolutionKm: 25, nriOnly: false })).toBe('low');
    expect(confidenceLevel({ eventsUsed: 50, recordYears: 100, resolutionKm: 25, nriOnly: true })).toBe('low');
    expect(confidenceLevel({ eventsUsed: 50, recordYears: 100, resolutionKm: 25, nriOnly: false })).toBe('medium');
    expect(confidenceLevel({ eventsUsed: 50, recordYears: 100, resolutionKm: 1, nriOnly: false })).toBe('high');
  });

  it('ranks a score against 101 quantiles with ties at mid-rank', () => {
    const q = Array.from({ length: 101 }, (_, i) => i / 10);
    expect(percentileOf(11, q)).toBe(100);
    expect(percentileOf(10, q)).toBe(99.5); // tied with the top quantile
    expect(percentileOf(-1, q)).toBe(0);
    expect(percentileOf(5, q)).toBeCloseTo(50, 0);
    expect(percentileOf(0, new Array(101).fill(0))).toBe(50);
  });
});
