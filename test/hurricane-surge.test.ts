/**
 * The hurricane model's storm surge (docs/hurricane-model.md "Storm surge"): what a user of the surge
 * footprints would notice. Surge peaks on the right of landfall and falls along the coast away from it;
 * the record's great surges come out within a factor of 2 of what was measured; inland cities get none;
 * depth at a building is the surge less its OED ground elevation, and no elevation means no surge
 * modelled, with the reason.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  areaperilId,
  cellCentre,
  cellOf,
  cellOfAreaperil,
  GRID_COLS,
} from '../src/models/hurricane/domain/footprint/grid.js';
import { surgeDepthAtLocation } from '../src/models/hurricane/domain/surge/surge-depth.js';
import { surgeHeightsForTrack, type SurgeHeights } from '../src/models/hurricane/domain/surge/surge-heights.js';
import { surgeSiteOf } from '../src/models/hurricane/domain/surge/surge-site.js';
import type { Track } from '../src/models/hurricane/domain/track.js';
import { historicalTracks, readAtlanticStorms } from '../src/models/hurricane/historical-tracks.js';
import { landGrid } from '../src/models/hurricane/land-grid.js';
import { SHARED_DATA } from './helpers/paths.js';

const KM_PER_DEG = 111.195;

/** Surge height (m) at the cell holding (lat, lng); 0 where the footprint has no row. */
function heightAt(s: SurgeHeights, lat: number, lng: number): number {
  const c = cellOf(lat, lng)!;
  const id = areaperilId(c.row, c.col);
  const i = s.areaperils.indexOf(id);
  return i < 0 ? 0 : s.heightM[i];
}

/** A storm moving due north at about 5 m/s along 89.3°W onto the Mississippi coast: 120 kt, 950 hPa, Rm 30 km. */
function northboundStorm(): Track {
  const fixes = [0, 6, 12, 18, 24, 30].map((h) => ({
    hours: h,
    lat: 27.5 + (h * 3600 * 5) / (KM_PER_DEG * 1000),
    lng: -89.3,
    windKt: 120,
    pressureMb: 950,
    rmwKm: 30,
    overLand: false,
  }));
  return { eventId: 1, parentId: 'TEST', fixes };
}

describe('the surge of one storm along the coast', () => {
  const grid = landGrid();
  const surge = surgeHeightsForTrack(northboundStorm(), grid);
  // The shore cells of the Mississippi coast (30.2-30.45°N), highest per 0.05° of longitude.
  const byLng = new Map<number, number>();
  surge.areaperils.forEach((id, i) => {
    const c = cellOfAreaperil(id);
    const { lat, lng } = cellCentre(c.row, c.col);
    if (lat < 30.2 || lat > 30.45 || grid.inlandKm[c.row * GRID_COLS + c.col] > 1) return;
    const key = Math.round(lng * 20) / 20;
    byLng.set(key, Math.max(byLng.get(key) ?? 0, surge.heightM[i]));
  });
  const along = [...byLng.entries()].sort((a, b) => a[0] - b[0]);
  const [peakLng, peak] = along.reduce((a, b) => (b[1] > a[1] ? b : a));
  const at = (lng: number) => byLng.get(Math.round(lng * 20) / 20) ?? 0;

  it('is highest on the right of the track, within about two radii of maximum wind', () => {
    expect(peakLng).toBeGreaterThan(-89.3);
    expect((peakLng + 89.3) * KM_PER_DEG * Math.cos((30.35 * Math.PI) / 180)).toBeLessThan(2 * 30 + 10);
    expect(peak).toBeGreaterThan(2);
  });

  it('falls along the coast away from landfall, fastest on the left where the wind blows offshore', () => {
    expect(at(-88.45)).toBeLessThan(peak); // 80 km right of the track
    expect(at(-89.65)).toBeLessThan(peak / 2); // 35 km left of the track
    expect(at(-89.65)).toBeLessThan(at(-88.95)); // the same distance on the right is higher
  });

  it('reaches no further inland than the grid measures distance from the sea coast', () => {
    for (const id of surge.areaperils) {
      const c = cellOfAreaperil(id);
      expect(grid.inlandKm[c.row * GRID_COLS + c.col]).toBeLessThanOrEqual(10);
    }
  });
});

describe('the record: Katrina 2005, Ian 2022, Andrew 1992 against the measured peaks', () => {
  const grid = landGrid();
  const surges = new Map<string, SurgeHeights>();
  beforeAll(() => {
    const ids = ['AL122005', 'AL092022', 'AL041992'];
    const storms = readAtlanticStorms(SHARED_DATA).filter((s) => ids.includes(s.id));
    for (const t of historicalTracks(storms, grid, 1900, 2024)) surges.set(t.parentId, surgeHeightsForTrack(t, grid));
  });

  // Observed: Katrina 27.8 ft (8.5 m) at Pass Christian (Knabb, Rhome & Brown 2005, NHC TCR); Ian 3.6-4.5 m of inundation at
  // Fort Myers Beach (Bucci et al. 2023, NHC TCR); Andrew 16.9 ft (5.2 m) at the Burger King headquarters
  // (Rappaport 1993, NHC preliminary report). The model is a parametric one: within a factor of 2.
  it.each([
    ['Katrina at Pass Christian, MS', 'AL122005', 30.315, -89.25, 8.5],
    ['Ian at Fort Myers Beach, FL', 'AL092022', 26.45, -81.95, 4.05],
    ['Andrew at the Burger King headquarters, south Miami-Dade', 'AL041992', 25.615, -80.315, 5.2],
  ])('%s is within a factor of 2 of the measured peak', (_name, id, lat, lng, observedM) => {
    const modelled = heightAt(surges.get(id)!, lat, lng);
    expect(modelled / observedM).toBeGreaterThan(0.5);
    expect(modelled / observedM).toBeLessThan(2);
  });

  it('gives inland Orlando no surge from Ian, and inland Hialeah none from Andrew', () => {
    expect(heightAt(surges.get('AL092022')!, 28.54, -81.38)).toBe(0);
    expect(heightAt(surges.get('AL041992')!, 25.86, -80.28)).toBe(0);
    expect(surges.get('AL092022')!.areaperils.length).toBeGreaterThan(100);
  });
});

describe('depth at a location: surge height less the OED ground elevation', () => {
  it('is zero where the ground (10 m) is above a 4 m surge, and the difference where it is below', () => {
    expect(surgeDepthAtLocation(4, { GroundElevation: 10, GroundElevationUnit: 2 })).toEqual({ depthM: 0 });
    expect(surgeDepthAtLocation(4, { GroundElevation: 1.5, GroundElevationUnit: 2 })).toEqual({ depthM: 2.5 });
    // OED's default unit is feet: 10 ft is 3.048 m.
    const feet = surgeDepthAtLocation(4, { GroundElevation: 10 });
    expect('depthM' in feet && feet.depthM).toBeCloseTo(0.952, 3);
  });

  it('is not modelled, with the reason, when the location has no usable elevation', () => {
    for (const fields of [{}, { GroundElevation: -999 }, { GroundElevation: '' }]) {
      const d = surgeDepthAtLocation(4, fields);
      expect(d).toEqual({ reason: expect.stringMatching(/^storm surge not modelled: GroundElevation is not given/) });
    }
    expect(surgeDepthAtLocation(4, { GroundElevation: 3, GroundElevationUnit: 7 })).toEqual({
      reason: expect.stringContaining('GroundElevationUnit 7'),
    });
  });

  it('places a location on the wind cell with its elevation, or gives a keys error with the reason', () => {
    const c = cellOf(26.45, -81.95)!;
    expect(surgeSiteOf({ Latitude: 26.45, Longitude: -81.95, GroundElevation: 6, GroundElevationUnit: 1 })).toEqual({
      areaperil: areaperilId(c.row, c.col),
      elevationM: 6 * 0.3048,
    });
    expect(surgeSiteOf({ Latitude: 26.45, Longitude: -81.95 })).toEqual({
      status: 'nomatch',
      message: expect.stringContaining('GroundElevation is not given'),
    });
    expect(surgeSiteOf({ Latitude: '', Longitude: -81.95, GroundElevation: 2 })).toMatchObject({ status: 'fail' });
  });
});
