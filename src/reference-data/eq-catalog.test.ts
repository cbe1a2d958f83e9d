import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../../test/helpers/paths.js';
import { parseNshmCatalog, regionalRate } from './eq-catalog.js';

const wus = sharedData('hazard_history/earthquakes/usgs_nshm_catalogs_wus/2014_wmm.c3.txt');
const ceus = sharedData('hazard_history/earthquakes/usgs_nshm2023_conus/ceus_full_catalog_emm_pn.c2.txt');

describe.skipIf(!fs.existsSync(wus))('NSHMP catalogs and Gutenberg-Richter rates', () => {
  it('parses both catalog formats and skips header lines', () => {
    expect(parseNshmCatalog(fs.readFileSync(wus, 'utf8'), 11)).toHaveLength(21_017);
    expect(parseNshmCatalog(fs.readFileSync(ceus, 'utf8'), 12)).toHaveLength(26_031);
  });

  it('gives b-values in the usual 0.7-1.1 range and a far more active west than east', () => {
    const w = regionalRate(parseNshmCatalog(fs.readFileSync(wus, 'utf8'), 11), 4.5, 1930);
    const e = regionalRate(parseNshmCatalog(fs.readFileSync(ceus, 'utf8'), 12), 4.5, 1930);
    for (const r of [w, e]) {
      expect(r.b).toBeGreaterThan(0.7);
      expect(r.b).toBeLessThan(1.1);
    }
    expect(w.rateAboveMc / e.rateAboveMc).toBeGreaterThan(10);
  });

  it('recovers b = 1 from a synthetic Gutenberg-Richter sample', () => {
    const events = [];
    for (let i = 0; i < 20_000; i++) {
      const m = 4.5 - Math.log10(1 - (i + 0.5) / 20_000); // exact quantiles of GR with b = 1
      events.push({ magnitude: m, lat: 0, lng: 0, year: 2000, nStar: 1 });
    }
    expect(regionalRate(events, 4.5, 1930, 0).b).toBeCloseTo(1, 2);
  });
});
