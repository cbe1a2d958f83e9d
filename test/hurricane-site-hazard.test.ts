/**
 * The site index that answers hazard curves quickly steps only the part of each track within the wind
 * field's reach: over a real catalog it must give exactly the peaks hazardCurve() finds over whole tracks.
 */
import { describe, expect, it } from 'vitest';
import { hazardCurve } from '../src/models/hurricane/domain/hazard-curve.js';
import { SiteHazardIndex } from '../src/models/hurricane/domain/site-hazard.js';
import { landGrid } from '../src/models/hurricane/land-grid.js';
import { buildHurricaneTrackSet } from '../src/models/hurricane/track-set.js';
import { siteOf } from '../src/models/hurricane/wind-validation.js';
import { SHARED_DATA } from './helpers/paths.js';

describe('SiteHazardIndex', () => {
  it('gives the same storm peaks as hazardCurve over whole tracks (200 simulated years, seed 7)', () => {
    const set = buildHurricaneTrackSet({ dataDir: SHARED_DATA, years: 200, seed: 7 });
    const index = new SiteHazardIndex(set.tracks, 1 / set.years);
    const grid = landGrid();
    for (const [lat, lng] of [
      [25.77, -80.19],
      [29.95, -90.07],
      [40.71, -74.01],
      [35.15, -90.05],
    ]) {
      const site = siteOf(grid, lat, lng);
      const fast = index.curve(site);
      const whole = hazardCurve(set.tracks, 1 / set.years, site);
      expect(fast.peaks.length, `${lat},${lng}`).toBe(whole.peaks.length);
      fast.peaks.forEach((p, i) =>
        expect(p.gustMph, `${lat},${lng} storm ${i}`).toBeCloseTo(whole.peaks[i].gustMph, 6),
      );
      expect(fast.spanYears).toBe(200);
    }
  }, 120_000);
});
