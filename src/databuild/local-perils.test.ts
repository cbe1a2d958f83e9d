import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA, sharedData } from '../../test/helpers/paths.js';
import { floodStageFrequency, gumbelFit, lp3Fit, normalQuantile, parseUsgsPeaks } from './flood-frequency.js';
import {
  FACTOR_CAP,
  gaugeExposure,
  heatMortalityFactor,
  latitudeGradient,
  normaliseWithinStates,
  parseNwpsGauges,
} from './local-perils.js';
import type { BuildCell } from '../reference-data/regions.js';

const cell = (stateFips: string, county = 0): BuildCell => ({
  region: 0,
  row: 0,
  col: 0,
  lat: 40,
  lng: -90,
  county,
  stateFips,
});

describe('sub-state terms of the NRI-level perils', () => {
  it('normalises a raw term to a population-weighted mean of 1 within each state, capped', () => {
    const cells = [cell('01'), cell('01'), cell('02')];
    const f = normaliseWithinStates(Float64Array.from([1, 3, 7]), cells, Float64Array.from([3, 1, 5]));
    // state 01: weighted mean (3·1 + 1·3) / 4 = 1.5, so 1 → 0.667 and 3 → 2; a one-cell state gets 1
    expect([...f].map((v) => Number(v.toFixed(3)))).toEqual([0.667, 2, 1]);
    const capped = normaliseWithinStates(
      Float64Array.from([1, 1000]),
      [cell('01'), cell('01')],
      Float64Array.from([1, 0]),
    );
    expect(capped[1]).toBe(FACTOR_CAP);
  });

  it('saturates the gauge term, so a dense urban-creek network does not outweigh one big-river forecast point many times over', () => {
    expect(gaugeExposure(0, 5)).toBe(0);
    expect(gaugeExposure(80, 5) / gaugeExposure(5, 5)).toBeLessThan(1.6);
  });

  it("prices 1 °C of urban heat island at Anderson & Bell's 2.49 % per °F", () => {
    expect(heatMortalityFactor(1)).toBeCloseTo(1.0249 ** 1.8, 10);
    expect(heatMortalityFactor(0)).toBe(1);
  });

  it('measures a latitude gradient by least squares on log10 over CONUS states only', () => {
    const lat = new Map([
      ['01', 30],
      ['05', 35],
      ['06', 40],
      ['02', 64],
    ]);
    const g = latitudeGradient(lat, (f) => ({ '01': 1, '05': 10, '06': 100, '02': 1e-6 })[f] ?? NaN);
    expect(g.states).toBe(3); // Alaska excluded
    expect(g.slope).toBeCloseTo(0.2, 10);
    expect(g.r).toBeCloseTo(1, 10);
  });
});

describe.skipIf(!fs.existsSync(SHARED_DATA))('real inputs of the sub-state terms', () => {
  it('reads the NWPS gauges with a defined flood stage, in service', () => {
    const g = parseNwpsGauges(fs.readFileSync(sharedData('feeds/nwps/nwps_all_gauges_report.csv'), 'utf8'));
    // 6,664 with a flood stage in service, of which 355 measure the tide
    expect(g.length).toBeGreaterThan(6_300);
    expect(g.length).toBeLessThan(6_664);
    // Tide gauges are coastal flooding, not rivers: Virginia Key (Miami) and The Battery (New York) are out
    expect(g.find((x) => x.lid === 'VAKF1')).toBeUndefined();
    expect(g.find((x) => x.lid === 'BATN6')).toBeUndefined();
    // Patuxent River near Bowie MD: flood stage 19 ft, no moderate or major stage defined
    expect(g.find((x) => x.lid === 'BOWM2')).toMatchObject({ weight: 1 });
    // Little Patuxent near Guilford: all four categories
    expect(g.find((x) => x.lid === 'LPGM2')).toMatchObject({ weight: 2 });
  });

  it('estimates how often the Patuxent near Bowie reaches its 19 ft flood stage three ways, and they agree within a factor of 2', () => {
    const peaks = parseUsgsPeaks(fs.readFileSync(sharedData('feeds/usgs_water/waterservices_peaks.txt'), 'utf8'));
    expect(peaks.length).toBe(20);
    const f = floodStageFrequency(peaks, 19);
    expect(f.reached).toBe(3); // 2006, 2011 (Lee), 2014
    for (const p of [f.gumbelStage, f.lp3Flow]) {
      expect(p / f.empirical).toBeGreaterThan(0.5);
      expect(p / f.empirical).toBeLessThan(2);
    }
    expect(f.q100Cfs).toBeGreaterThan(16_800); // above the largest peak of the record
  });

  it('inverts its own distributions', () => {
    expect(normalQuantile(0.99)).toBeCloseTo(2.3263, 4);
    const g = gumbelFit([10, 12, 15, 11, 19, 13]);
    expect(g.exceedance(g.quantile(0.01))).toBeCloseTo(0.01, 10);
    const l = lp3Fit([3640, 3800, 1510, 6990, 5790, 5210, 12700, 5520]);
    expect(l.exceedance(l.quantile(0.02))).toBeCloseTo(0.02, 3);
  });
});
