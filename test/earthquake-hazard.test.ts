/**
 * PGA hazard curves from the earthquake model, built from the shared NSHM source data: Los Angeles far above
 * Chicago at 2 % in 50 years, every CONUS point answers with a proper curve, and the 3σ truncation holds.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  groundMotionAtRate,
  HazardCalculator,
  PGA_LEVELS_G,
  RATE_10PCT_IN_50,
  RATE_2PCT_IN_50,
} from '../src/models/earthquake/domain/hazard-curve.js';
import { exceedanceProbability } from '../src/models/earthquake/domain/exceedance.js';
import {
  griddedRuptures,
  joynerBooreKm,
  magnitudeBins,
  pointRuptureDistances,
  type GriddedSource,
} from '../src/models/earthquake/domain/rupture-set.js';
import { binProbabilities, siteGroundMotion } from '../src/models/earthquake/domain/footprint.js';
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

  it('measures R_JB to a dipping fault: zero above it on the hanging wall, the trace distance on the footwall', () => {
    // A north–south trace at 118° W dipping 30° east from 0 to 15 km: its surface projection is 26 km wide.
    const plane = {
      trace: [
        [-118, 34],
        [-118, 34.5],
      ] as Array<[number, number]>,
      dipDeg: 30,
      dipDir: [1, 0] as [number, number],
      upKm: 0,
      lowKm: 15,
    };
    const kmPerDegLng = 111.19 * Math.cos((34.25 * Math.PI) / 180);
    expect(joynerBooreKm(34.25, -118 + 10 / kmPerDegLng, plane)).toBe(0);
    expect(joynerBooreKm(34.25, -118 + 40 / kmPerDegLng, plane)).toBeCloseTo(40 - 15 / Math.tan(Math.PI / 6), 0);
    expect(joynerBooreKm(34.25, -118 - 20 / kmPerDegLng, plane)).toBeCloseTo(20, 0);
  });

  it('gives a point source a finite rupture: R_JB is zero along its strike within half its length', () => {
    expect(pointRuptureDistances(10, 7, 0).rjbKm).toBe(0); // L(M7) ≈ 41 km
    expect(pointRuptureDistances(10, 7, Math.PI / 2).rjbKm).toBeCloseTo(10, 9);
    expect(pointRuptureDistances(0, 5, 0).rrupKm).toBeCloseTo(5, 9);
  });

  it('spreads a cell rate over truncated Gutenberg–Richter bins that sum to one', () => {
    const bins = magnitudeBins(1, 7.05);
    expect(bins.reduce((s, b) => s + b.share, 0)).toBeCloseTo(1, 12);
    expect(bins[0].share / bins[1].share).toBeCloseTo(10 ** 0.1, 6);
    expect(bins[bins.length - 1].magnitude).toBeCloseTo(7.025, 9);
  });
});

describe('footprints from the same ruptures and ground motion', () => {
  const cell: GriddedSource = { lat: 36, lng: -120, tectonic: 'active', rateM5: 0.01, b: 0.9, mMax: 7.3 };

  it("summing the rate × exceedance of the cell's ruptures gives the hazard curve within 5 %", () => {
    const one = new HazardCalculator({ grid: [cell], faults: [] });
    for (const [lat, lng] of [
      [36.05, -120],
      [36.3, -119.8],
      [36.9, -120.5],
    ] as const) {
      const curve = one.curve(lat, lng);
      const ruptures = griddedRuptures(cell, 36);
      PGA_LEVELS_G.forEach((x, i) => {
        let rate = 0;
        for (const r of ruptures) {
          const gm = siteGroundMotion(r, lat, lng);
          rate += r.rate * exceedanceProbability(Math.log(x), gm.lnMedian, gm.sigma);
        }
        if (rate > 1e-9) expect(Math.abs(curve.rates[i] / rate - 1), `${lat}, ${lng} at ${x} g`).toBeLessThan(0.05); // 8 tabulated strikes and 1-km steps against 36 explicit strikes
      });
    }
  });

  it('carries σ into probabilities over intensity bins', () => {
    const [r] = griddedRuptures(cell).filter((x) => x.magnitude > 6.9);
    const gm = siteGroundMotion(r, 36.1, -120);
    const p = binProbabilities(gm, [0.05, 0.1, 0.2, 0.4, 0.8]);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(exceedanceProbability(Math.log(0.05), gm.lnMedian, gm.sigma), 12);
    expect(p.filter((x) => x > 0.05).length).toBeGreaterThan(2);
  });
});
