/**
 * PGA hazard curves from the earthquake model, built from the shared NSHM source data: Los Angeles far above
 * Chicago at 2 % in 50 years, every CONUS point answers with a proper curve, and the 3σ truncation holds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { groundMotionAtRate, HazardCalculator, PGA_LEVELS_G, RATE_10PCT_IN_50, RATE_2PCT_IN_50 } from '../src/models/earthquake/domain/hazard-curve.js';
import { exceedanceProbability } from '../src/models/earthquake/domain/exceedance.js';
import { magnitudeBins } from '../src/models/earthquake/domain/rupture-set.js';
import { loadEarthquakeSources } from '../src/models/earthquake/io/load-sources.js';
import { sharedData } from './helpers/paths.js';

let calc: HazardCalculator;
beforeAll(() => {
  calc = new HazardCalculator(loadEarthquakeSources(sharedData('.')));
}, 60_000);

describe('earthquake PGA hazard (Vs30 760 m/s)', () => {
  it('Los Angeles exceeds 0.5 g at 2 % in 50 years and Chicago stays under 0.1 g', () => {
    const la = calc.curve(34.05, -118.25);
    const chicago = calc.curve(41.85, -87.65);
    expect(groundMotionAtRate(la, RATE_2PCT_IN_50)).toBeGreaterThan(0.5);
    expect(groundMotionAtRate(chicago, RATE_2PCT_IN_50)).toBeLessThan(0.1);
    expect(groundMotionAtRate(la, RATE_10PCT_IN_50)).toBeGreaterThan(5 * groundMotionAtRate(chicago, RATE_10PCT_IN_50));
  });

  it('answers at any CONUS point with a non-increasing curve over the standard levels', () => {
    // The corners and the quietest places of the lower 48, and a sweep along 37° N.
    const points: Array<[number, number]> = [
      [24.55, -81.78], // Key West
      [25.9, -97.5], // Brownsville
      [48.9, -97.2], // Pembina, North Dakota
      [47.0, -68.0], // northern Maine
      [29.3, -103.3], // Big Bend
      [46.8, -92.1], // Duluth
      [48.0, -124.6], // Olympic coast
      [32.7, -117.2], // San Diego
      ...Array.from({ length: 13 }, (_, i): [number, number] => [37, -122 + 4 * i]),
    ];
    for (const [lat, lng] of points) {
      const c = calc.curve(lat, lng);
      expect(c.levelsG).toEqual(PGA_LEVELS_G);
      expect(c.rates[0], `${lat}, ${lng}`).toBeGreaterThan(0);
      for (let i = 1; i < c.rates.length; i++) expect(c.rates[i]).toBeLessThanOrEqual(c.rates[i - 1]);
    }
  });

  it('a softer site raises the hazard', () => {
    const rock = groundMotionAtRate(calc.curve(37.75, -122.4), RATE_10PCT_IN_50);
    const soil = groundMotionAtRate(calc.curve(37.75, -122.4, 270), RATE_10PCT_IN_50);
    expect(soil).toBeGreaterThan(rock);
  });

  it('names a bad point', () => {
    expect(() => calc.curve(Number.NaN, -100)).toThrow(/lat NaN/);
  });
});

describe('pieces of the integral', () => {
  it('truncates the lognormal at 3σ and renormalises', () => {
    expect(exceedanceProbability(Math.log(0.1) + 3.01 * 0.6, Math.log(0.1), 0.6)).toBe(0);
    expect(exceedanceProbability(Math.log(0.1) - 3.01 * 0.6, Math.log(0.1), 0.6)).toBe(1);
    expect(exceedanceProbability(Math.log(0.1), Math.log(0.1), 0.6)).toBeCloseTo(0.5, 6);
  });

  it('spreads a cell rate over truncated Gutenberg–Richter bins that sum to one', () => {
    const bins = magnitudeBins(1, 7.05);
    expect(bins.reduce((s, b) => s + b.share, 0)).toBeCloseTo(1, 12);
    expect(bins[0].share / bins[1].share).toBeCloseTo(10 ** 0.1, 6);
    expect(bins[bins.length - 1].magnitude).toBeCloseTo(7.025, 9);
  });
});
