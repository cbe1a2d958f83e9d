/**
 * The hurricane model's losses against reported losses and FEMA NRI (docs/validation.md, "Hurricane design
 * winds and losses"): a storm's gusts at a set of points are the site hazard curve's gusts; Ian 2022 through
 * the model's wind field and HAZUS vulnerability on NRI's county building values comes within a factor of
 * 2.5 of NOAA's reported total; the page shows the Andrew and Ian losses this code computes; on a
 * 1,000-year catalog the state AAL rates rank like NRI's (the page's figures use 10,000 years).
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PointSet, pointPeakGusts } from '../src/models/hurricane/domain/footprint/point-gusts.js';
import { FIRST_EDGE_MPH } from '../src/models/hurricane/domain/intensity-bins.js';
import type { Track } from '../src/models/hurricane/domain/track.js';
import { indexConfigurations } from '../src/models/hurricane/domain/vulnerability/vulnerability-table.js';
import { sitePeakGustMph } from '../src/models/hurricane/domain/wind-field/point-wind.js';
import { stormSteps } from '../src/models/hurricane/domain/wind-field/storm-steps.js';
import { MIX_FLORIDA, MIX_US, mixFor, mixMeanDamageByBin } from '../src/models/hurricane/building-mix.js';
import { historicalTracks, readAtlanticStorms } from '../src/models/hurricane/historical-tracks.js';
import { readHazusHurricane } from '../src/models/hurricane/io/hazus-hurricane-data.js';
import { landGrid } from '../src/models/hurricane/land-grid.js';
import { aalByPoint, billionDollarLoss, catalogPointGusts, LOSS_STORMS, nriExposure, stateRates, stormLoss, type ExposurePoint } from '../src/models/hurricane/loss-validation.js';
import { HAZUS_HURRICANE_DIR } from '../src/models/hurricane/package/build.js';
import { buildHurricaneTrackSet } from '../src/models/hurricane/track-set.js';
import { HISTORY_FROM, HISTORY_TO } from '../src/models/hurricane/wind-validation.js';
import { REPO_ROOT, SHARED_DATA } from './helpers/paths.js';

const grid = landGrid();
let tracks: Map<string, Track>;
let counties: ExposurePoint[];
let set: PointSet;

beforeAll(() => {
  const history = historicalTracks(readAtlanticStorms(SHARED_DATA), grid, HISTORY_FROM, HISTORY_TO);
  tracks = new Map(LOSS_STORMS.map((s) => [s.parentId, history.find((t) => t.parentId === s.parentId)!]));
  counties = nriExposure(SHARED_DATA, grid);
  set = new PointSet(counties);
}, 120_000);

describe("a storm's peak gust at a set of points", () => {
  it('is the gust the site hazard curve computes, at every county centre the storm brings to 40 mph', () => {
    for (const id of ['AL041992', 'AL092022']) {
      const t = tracks.get(id)!;
      const g = pointPeakGusts(t, set);
      expect(g.points.length).toBeGreaterThan(20);
      const steps = stormSteps(t);
      g.points.forEach((i, j) => {
        const p = counties[i];
        expect(g.gustMph[j]).toBeCloseTo(sitePeakGustMph(steps, p.lat, p.lng, p.inlandKm), 2);
      });
      // and leaves out only centres below the first intensity edge
      const hit = new Set(g.points);
      for (let i = 0; i < counties.length; i += 7) {
        if (hit.has(i)) continue;
        const p = counties[i];
        expect(sitePeakGustMph(steps, p.lat, p.lng, p.inlandKm)).toBeLessThan(FIRST_EDGE_MPH);
      }
    }
  });
});

let mdrOf: (p: ExposurePoint) => number[];
beforeAll(() => {
  const hazus = indexConfigurations(readHazusHurricane(path.join(SHARED_DATA, HAZUS_HURRICANE_DIR)));
  const mdr = { FL: mixMeanDamageByBin(MIX_FLORIDA, hazus), US: mixMeanDamageByBin(MIX_US, hazus) };
  mdrOf = (p: ExposurePoint) => (mixFor(p.state) === MIX_FLORIDA ? mdr.FL : mdr.US);
}, 120_000);

describe('Andrew 1992 and Ian 2022 on the NRI building value', () => {
  let losses: Map<string, number>;
  beforeAll(() => {
    losses = new Map(LOSS_STORMS.map((s) => [s.parentId, stormLoss(pointPeakGusts(tracks.get(s.parentId)!, set), counties, mdrOf)]));
  }, 120_000);

  it("Ian's modelled building wind loss is within a factor of 2.5 of NOAA's reported total direct loss", () => {
    const reported = billionDollarLoss(SHARED_DATA, 'Hurricane Ian (September 2022)').cpiAdjusted;
    const ratio = losses.get('AL092022')! / reported;
    expect(ratio).toBeGreaterThan(1 / 2.5);
    expect(ratio).toBeLessThan(2.5);
  });

  it('docs/validation.md shows the losses this code computes for both storms', () => {
    const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs/validation.md'), 'utf8');
    const section = doc.slice(doc.indexOf('<!-- hurricane-losses:start -->'), doc.indexOf('<!-- hurricane-losses:end -->'));
    expect(section.length).toBeGreaterThan(100);
    for (const s of LOSS_STORMS) {
      const row = section.split('\n').find((l) => l.startsWith(`| ${s.storm} |`));
      expect(row, `a row for ${s.storm}`).toBeDefined();
      expect(row).toContain(`$${(losses.get(s.parentId)! / 1e9).toFixed(1)} B`);
    }
  });
});

describe('state AAL rates on the NRI building value', () => {
  it('rank like FEMA NRI v1.20 state hurricane building loss rates (Spearman >= 0.85, median ratio in [0.5, 2]) on 1,000 years', () => {
    const years = 1000;
    const catalog = buildHurricaneTrackSet({ dataDir: SHARED_DATA, years, seed: 1 });
    const aal = aalByPoint(catalogPointGusts(catalog.tracks, set), 1 / years, counties, mdrOf);
    const cmp = stateRates(SHARED_DATA, counties, aal);
    expect(cmp.rows.length).toBeGreaterThan(30);
    expect(cmp.rho).toBeGreaterThanOrEqual(0.85);
    expect(cmp.medianRatio).toBeGreaterThanOrEqual(0.5);
    expect(cmp.medianRatio).toBeLessThanOrEqual(2);
    // Florida, the state with the most value at risk, carries a rate of a few tenths of a per cent a year.
    const fl = cmp.rows.find((r) => r.name === 'FL')!;
    expect(fl.ours).toBeGreaterThan(0.001);
    expect(fl.ours).toBeLessThan(0.01);
  }, 300_000);
});
