import { describe, expect, it } from 'vitest';
import type { Position } from 'geojson';
import { haversineKm } from '../../lib/geo.js';
import {
  aww14Mmi,
  CORRECTED_IPE,
  earthquakeRings,
  mmiRadiusKm,
  ruptureWidthKm,
  surfaceRuptureLengthKm,
  UNCORRECTED_IPE,
} from './earthquake.js';

/** Shoelace area on [lng, lat]; positive = counter-clockwise. */
const signedArea = (ring: Position[]) =>
  ring.slice(1).reduce((a, p, i) => a + (ring[i][0] * p[1] - p[0] * ring[i][1]), 0) / 2;

/** docs/methods.md#earthquake-shaking table: AWW14 median radii (epicentral km, depth 10 km); null = "–". */
const TABLE: Array<[number, 'west' | 'east', [number | null, number | null, number | null]]> = [
  [5.0, 'west', [null, null, 31]],
  [5.0, 'east', [null, null, 66]],
  [6.0, 'west', [null, 16, 87]],
  [6.0, 'east', [null, 31, 248]],
  [6.5, 'west', [null, 29, 137]],
  [6.5, 'east', [null, 47, 349]],
  [7.0, 'west', [null, 43, 195]],
  [7.0, 'east', [17, 98, 461]],
  [7.5, 'west', [16, 68, 261]],
  [7.5, 'east', [29, 166, 582]],
  [8.0, 'west', [27, 103, 333]],
  [8.0, 'east', [42, 232, 708]],
];

describe('AWW14 intensity prediction', () => {
  it.each(TABLE)(
    'M%s %s: MMI VIII / VI / IV radii match docs/methods.md#earthquake-shaking within 1 km',
    (m, region, expected) => {
      const got = [8, 6, 4].map((mmi) => mmiRadiusKm(m, 10, region, mmi));
      got.forEach((r, i) => {
        if (expected[i] === null) expect(r).toBeNull();
        else expect(Math.abs((r as number) - (expected[i] as number))).toBeLessThanOrEqual(1);
      });
    },
  );

  it('the median MMI at the found radius is the target level', () => {
    const r = mmiRadiusKm(6.0, 10, 'east', 4) as number;
    expect(aww14Mmi(6.0, r, 10, 'east')).toBeCloseTo(4, 6);
  });

  it('deeper quakes shake less at the epicentre', () => {
    expect(aww14Mmi(6.0, 0, 100, 'west')).toBeLessThan(aww14Mmi(6.0, 0, 10, 'west'));
  });
});

describe('earthquakeRings', () => {
  const center = { lat: 34.2, lng: -118.5 };

  it('M6.0 east: VI and IV rings as point-source circles at the +0.3 MMI corrected median, innermost first', () => {
    const rings = earthquakeRings(
      { kind: 'earthquake', magnitude: 6.0, depthKm: 10, region: 'east' },
      { lat: 36.5, lng: -89.6 },
    );
    expect(rings.map((r) => [r.kind, r.label, r.threshold, r.unit])).toEqual([
      ['mmi', 'MMI VI (strong shaking)', 6, 'MMI'],
      ['mmi', 'MMI IV (light shaking)', 4, 'MMI'],
    ]);
    // The corrected ring sits where the uncorrected median reaches the level minus the bias.
    expect(CORRECTED_IPE.biasMmi).toBe(0.3);
    expect(rings[0].radiusKm).toBeCloseTo(mmiRadiusKm(6.0, 10, 'east', 5.7) as number, 1);
    expect(rings[1].radiusKm).toBeCloseTo(mmiRadiusKm(6.0, 10, 'east', 3.7) as number, 1);
    // Uncorrected, the docs/methods.md#earthquake-shaking radii.
    const before = earthquakeRings(
      { kind: 'earthquake', magnitude: 6.0, depthKm: 10, region: 'east' },
      { lat: 36.5, lng: -89.6 },
      UNCORRECTED_IPE,
    );
    expect(before.map((r) => r.radiusKm)).toEqual([30.9, 248.2]);
  });

  it('M7.0 west, uncorrected: adds half the Wells & Coppersmith rupture length (unknown strike)', () => {
    expect(surfaceRuptureLengthKm(7.0)).toBeCloseTo(40.7, 1);
    const rings = earthquakeRings(
      { kind: 'earthquake', magnitude: 7.0, depthKm: 10, region: 'west' },
      center,
      UNCORRECTED_IPE,
    );
    expect(rings.map((r) => r.threshold)).toEqual([6, 4]);
    expect(rings[0].radiusKm).toBeCloseTo(43.1 + 20.4, 0);
    expect(rings[1].radiusKm).toBeCloseTo(195.2 + 20.4, 0);
  });

  it('M7.0 west, corrected: rupture distance from the rupture top, equal-area circle of the line footprint', () => {
    const rings = earthquakeRings({ kind: 'earthquake', magnitude: 7.0, depthKm: 10, region: 'west' }, center);
    const half = surfaceRuptureLengthKm(7.0) / 2;
    const topKm = 10 - ruptureWidthKm(7.0) / 2; // W&C width 17.0 km: top at 1.5 km
    expect(topKm).toBeCloseTo(1.5, 1);
    const expected = [7.7, 5.7, 3.7].map((level) => {
      const r = mmiRadiusKm(7.0, topKm, 'west', level) as number;
      return Math.sqrt(r * r + (4 * r * half) / Math.PI);
    });
    // The bias and the shallower source reach MMI VIII, which the uncorrected equation never drew for M7.0.
    expect(rings.map((r) => r.threshold)).toEqual([8, 6, 4]);
    rings.forEach((r, i) => expect(r.radiusKm).toBeCloseTo(expected[i], 1));
    // The equal-area circle is smaller than the union over every strike (r + SRL/2) for every level.
    rings.forEach((r, i) =>
      expect(r.radiusKm as number).toBeLessThan((mmiRadiusKm(7.0, topKm, 'west', [7.7, 5.7, 3.7][i]) as number) + half),
    );
  });

  it('M7.5 east reaches VIII: three rings, outermost last', () => {
    const rings = earthquakeRings({ kind: 'earthquake', magnitude: 7.5, depthKm: 10, region: 'east' }, center);
    expect(rings.map((r) => r.threshold)).toEqual([8, 6, 4]);
    const radii = rings.map((r) => r.radiusKm as number);
    expect(radii).toEqual([...radii].sort((a, b) => a - b));
  });

  it('small quakes get no rings', () => {
    expect(earthquakeRings({ kind: 'earthquake', magnitude: 3.5, depthKm: 8, region: 'west' }, center)).toEqual([]);
    expect(earthquakeRings({ kind: 'earthquake', magnitude: -0.4, depthKm: 2, region: 'west' }, center)).toEqual([]);
  });

  it('rings are closed, counter-clockwise [lng, lat] circles at the stated radius', () => {
    for (const ring of earthquakeRings({ kind: 'earthquake', magnitude: 6.8, depthKm: 15, region: 'west' }, center)) {
      expect(ring.geometry.type).toBe('Polygon');
      const coords = (ring.geometry.coordinates as Position[][])[0];
      expect(coords[0]).toEqual(coords[coords.length - 1]);
      expect(signedArea(coords)).toBeGreaterThan(0);
      for (const [lng, lat] of coords)
        expect(haversineKm(center.lat, center.lng, lat, lng)).toBeCloseTo(ring.radiusKm as number, 0);
    }
  });
});
