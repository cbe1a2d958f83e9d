/**
 * The hurricane model's wind footprint (docs/hurricane-model.md "Wind footprint"): what a user of the
 * footprints would notice. The wind peaks near the radius of maximum wind on the right of the track and
 * falls away from it; the gust is lower just inland of a coast than just off it; Andrew's modelled gust in
 * south Dade is close to the gust recorded there; neighbouring Manhattan districts get the same bin; each
 * cell's bin probabilities sum to 1; one storm's footprint is valid Oasis rows.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN_WIDTH_MPH, INTENSITY_BIN_COUNT, binOfGust } from '../src/models/hurricane/domain/intensity-bins.js';
import { areaperilId, cellOf, GRID_CELLS } from '../src/models/hurricane/domain/footprint/grid.js';
import { exceedanceRate, gustAtReturnPeriod, hazardCurve } from '../src/models/hurricane/domain/hazard-curve.js';
import { gustBinProbabilities } from '../src/models/hurricane/domain/footprint/intensity-uncertainty.js';
import {
  FOOTPRINT_HEADER_BYTES,
  FOOTPRINT_ROW_BYTES,
  footprintBinary,
  footprintRows,
  intensityBinDictCsv,
} from '../src/models/hurricane/domain/footprint/oasis-footprint.js';
import { peakGustFootprint, type PeakGustFootprint } from '../src/models/hurricane/domain/footprint/peak-gust.js';
import type { Track } from '../src/models/hurricane/domain/track.js';
import { stepGustMph } from '../src/models/hurricane/domain/wind-field/point-wind.js';
import { stormSteps } from '../src/models/hurricane/domain/wind-field/storm-steps.js';
import { historicalTracks, readAtlanticStorms } from '../src/models/hurricane/historical-tracks.js';
import { landGrid } from '../src/models/hurricane/land-grid.js';
import { LANDFALL_CHECKS, landfallGustMph, siteOf } from '../src/models/hurricane/wind-validation.js';
import { SHARED_DATA } from './helpers/paths.js';

const KM_PER_DEG = 111.195;

/** A storm moving due west at about 5 m/s across 27°N: 120 kt, 950 hPa, Rm 30 km, fixes 6 h apart. */
function westwardStorm(): Track {
  const fixes = [0, 6, 12].map((h) => ({
    hours: h,
    lat: 27,
    lng: -70 - (h * 3600 * 5) / (KM_PER_DEG * 1000 * Math.cos((27 * Math.PI) / 180)),
    windKt: 120,
    pressureMb: 950,
    rmwKm: 30,
    overLand: false,
  }));
  return { eventId: 1, parentId: 'TEST', fixes };
}

/** Offset (km east, north) → lat/lng around a centre. */
const at = (c: { lat: number; lng: number }, eastKm: number, northKm: number) => ({
  lat: c.lat + northKm / KM_PER_DEG,
  lng: c.lng + eastKm / (KM_PER_DEG * Math.cos((c.lat * Math.PI) / 180)),
});

describe('the wind field of one storm position', () => {
  const steps = stormSteps(westwardStorm());
  const step = steps[Math.floor(steps.length / 2)];

  it('peaks near the radius of maximum wind, on the right of the track (north of a westbound storm)', () => {
    let best = { gust: 0, r: 0, east: 0, north: 0 };
    for (let r = 5; r <= 150; r += 2.5) {
      for (let deg = 0; deg < 360; deg += 5) {
        const east = r * Math.sin((deg * Math.PI) / 180);
        const north = r * Math.cos((deg * Math.PI) / 180);
        const p = at(step, east, north);
        const gust = stepGustMph(step, p.lat, p.lng, 0);
        if (gust > best.gust) best = { gust, r, east, north };
      }
    }
    expect(best.r).toBeGreaterThan(0.7 * 30);
    expect(best.r).toBeLessThan(1.5 * 30);
    expect(best.north).toBeGreaterThan(0);
    // The right side is stronger than the left at the same distance.
    const right = stepGustMph(step, at(step, 0, 30).lat, at(step, 0, 30).lng, 0);
    const left = stepGustMph(step, at(step, 0, -30).lat, at(step, 0, -30).lng, 0);
    expect(right).toBeGreaterThan(left + 5);
    // Over water the peak 3-s gust is the record's 1-min Vmax (138 mph) times a marine gust factor.
    expect(best.gust).toBeGreaterThan(138 * 1.1);
    expect(best.gust).toBeLessThan(138 * 1.25);
  });

  it('falls with distance from the centre beyond the radius of maximum wind', () => {
    const g = [30, 60, 120, 240, 480].map((r) => stepGustMph(step, at(step, 0, r).lat, at(step, 0, r).lng, 0));
    for (let i = 1; i < g.length; i++) expect(g[i]).toBeLessThan(g[i - 1]);
    expect(g[4]).toBeLessThan(g[0] / 3);
  });
});

describe('footprints on the grid', () => {
  const grid = landGrid();
  let tracks: Track[];
  beforeAll(() => {
    tracks = historicalTracks(readAtlanticStorms(SHARED_DATA), grid, 1900, 2024);
  });
  const track = (id: string) => tracks.find((t) => t.parentId === id)!;

  it('is lower just inside the coast than just off it, at the same distance from the storm', () => {
    // The Florida coast at Vero Beach runs north–south; a storm 60 km due north, moving south, is equally
    // far from a point 3 km off the beach and a point 3 km inland.
    const water = siteOf(grid, 27.64, -80.33);
    const land = siteOf(grid, 27.64, -80.39);
    expect(water.inlandKm).toBe(0);
    expect(land.inlandKm).toBeGreaterThan(2);
    const mid = (water.lng + land.lng) / 2;
    const centre = at({ lat: 27.64, lng: mid }, 0, 60);
    const southbound: Track = {
      eventId: 1,
      parentId: 'TEST',
      fixes: [0, 6].map((h) => ({
        hours: h,
        lat: centre.lat + 0.5 - h * 0.1,
        lng: mid,
        windKt: 110,
        pressureMb: 955,
        rmwKm: 40,
        overLand: false,
      })),
    };
    const step = stormSteps(southbound).find((s) => Math.abs(s.lat - centre.lat) < 0.01)!;
    const overWater = stepGustMph(step, water.lat, water.lng, water.inlandKm);
    const overLand = stepGustMph(step, land.lat, land.lng, land.inlandKm);
    expect(overLand).toBeLessThan(overWater * 0.97);
  });

  it('gives Andrew 1992 a gust in south Dade within 10 % of the 177 mph recorded at Perrine', () => {
    const perrine = LANDFALL_CHECKS.find((c) => c.place === 'Perrine, FL')!;
    const gust = landfallGustMph(track('AL041992'), grid, perrine.lat, perrine.lng);
    expect(Math.abs(gust - 177) / 177).toBeLessThan(0.1);
    // The footprint's cell holds the same gust as the point (the grid is fine enough to carry it).
    const fp = peakGustFootprint(track('AL041992'), grid);
    const c = cellOf(perrine.lat, perrine.lng)!;
    const i = fp.areaperils.indexOf(areaperilId(c.row, c.col));
    expect(Math.abs(fp.gustMph[i] - gust)).toBeLessThan(BIN_WIDTH_MPH);
  });

  it('puts Lower Manhattan and Midtown within one intensity bin of each other (Sandy 2012, the 1938 hurricane)', () => {
    for (const id of ['AL182012', 'AL061938']) {
      const fp = peakGustFootprint(track(id), grid);
      const gustAt = (lat: number, lng: number) => {
        const c = cellOf(lat, lng)!;
        const i = fp.areaperils.indexOf(areaperilId(c.row, c.col));
        expect(i).toBeGreaterThanOrEqual(0);
        return fp.gustMph[i];
      };
      const lower = gustAt(40.7075, -74.0113);
      const midtown = gustAt(40.7549, -73.984);
      expect(cellOf(40.7075, -74.0113)).not.toEqual(cellOf(40.7549, -73.984));
      expect(Math.abs(lower - midtown)).toBeLessThan(BIN_WIDTH_MPH);
      expect(Math.abs(binOfGust(lower) - binOfGust(midtown))).toBeLessThanOrEqual(1);
    }
  });

  it('gives the same hazard curve from history at 1/125 a year as from a catalog repeating it at a quarter of that rate, read empirically once the catalog is long enough', () => {
    const miami = siteOf(grid, 25.7743, -80.1937);
    const history = hazardCurve(tracks, 1 / 125, miami);
    const catalog = hazardCurve(
      [...tracks, ...tracks, ...tracks, ...tracks],
      Array(tracks.length * 4).fill(1 / 500),
      miami,
    );
    for (const g of [50, 80, 110, 140]) expect(exceedanceRate(catalog, g)).toBeCloseTo(exceedanceRate(history, g), 9);
    expect(history.peaks.length).toBeGreaterThan(30);
    expect(gustAtReturnPeriod(history, 100).method).toBe('weibull_tail');
    const fromCatalog = gustAtReturnPeriod(catalog, 100);
    expect(fromCatalog.method).toBe('empirical');
    // The empirical 100-year gust is the gust exceeded at 1 % a year.
    expect(exceedanceRate(catalog, fromCatalog.gustMph! + 0.5)).toBeLessThanOrEqual(0.01 + 1e-12);
    expect(exceedanceRate(catalog, fromCatalog.gustMph! - 0.5)).toBeGreaterThanOrEqual(0.01 - 1e-12);
  });

  it("writes one storm's footprint as Oasis rows: ascending areaperils on the grid, probabilities summing to 1 per cell", () => {
    const fp: PeakGustFootprint = peakGustFootprint(track('AL092022'), grid);
    expect(fp.areaperils.length).toBeGreaterThan(1000);
    const rows = footprintRows(7, fp);
    const sums = new Map<number, number>();
    const bad: string[] = [];
    for (let i = 0; i < rows.areaperil.length; i++) {
      const ap = rows.areaperil[i];
      if (rows.eventId[i] !== 7 || ap < 1 || ap > GRID_CELLS || rows.bin[i] < 1 || rows.bin[i] > INTENSITY_BIN_COUNT)
        bad.push(`row ${i}`);
      if (i > 0 && !(ap > rows.areaperil[i - 1] || (ap === rows.areaperil[i - 1] && rows.bin[i] > rows.bin[i - 1])))
        bad.push(`order at ${i}`);
      sums.set(ap, (sums.get(ap) ?? 0) + rows.probability[i]);
    }
    expect(bad).toEqual([]);
    expect(sums.size).toBe(fp.areaperils.length);
    expect([...sums.values()].filter((x) => Math.abs(x - 1) > 1e-5)).toEqual([]);
    const { bin, idx } = footprintBinary([rows]);
    expect(bin.length).toBe(FOOTPRINT_HEADER_BYTES + rows.areaperil.length * FOOTPRINT_ROW_BYTES);
    expect(bin.readInt32LE(0)).toBe(INTENSITY_BIN_COUNT);
    expect(idx.readInt32LE(0)).toBe(7);
    expect(Number(idx.readBigInt64LE(4))).toBe(FOOTPRINT_HEADER_BYTES);
    expect(intensityBinDictCsv().trim().split('\n')).toHaveLength(INTENSITY_BIN_COUNT + 1);
  });
});

describe('intensity uncertainty', () => {
  it('spreads every gust over neighbouring bins with probabilities summing to 1, most on its own bin', () => {
    for (let g = 30; g <= 280; g += 1.7) {
      const p = gustBinProbabilities(g);
      const total = p.reduce((s, b) => s + b.probability, 0);
      expect(total).toBeCloseTo(1, 9);
      for (let i = 1; i < p.length; i++) expect(p[i].bin).toBe(p[i - 1].bin + 1);
      const own = p.find((b) => b.bin === binOfGust(g));
      expect(own).toBeDefined();
      if (g > 60 && g < 250) expect(p.length).toBeGreaterThan(2);
    }
  });
});
