import { area, booleanClockwise, booleanContains } from '@turf/turf';
import type { MultiPolygon, Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { areaEquivalentRadiusKm, wildfireRings } from './wildfire.js';

const center = { lat: 40.0714, lng: -122.0563 };
const km2 = (g: Polygon | MultiPolygon) => area(g) / 1e6;

function expectValid(g: Polygon | MultiPolygon) {
  for (const rings of g.type === 'Polygon' ? [g.coordinates] : g.coordinates) {
    rings.forEach((ring, i) => {
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      expect(booleanClockwise(ring)).toBe(i > 0);
    });
  }
}

describe('wildfireRings', () => {
  it('without a perimeter: an area-equivalent circle, then 0.1 / 0.5 / 2 km bands, outermost last', () => {
    const rings = wildfireRings({ kind: 'wildfire', acres: 18450 }, center);
    const r0 = areaEquivalentRadiusKm(18450);
    expect(r0).toBeCloseTo(4.875, 3); // sqrt(18450 * 0.00404686 / pi)
    expect(rings.map((r) => [r.kind, r.threshold, r.unit, r.radiusKm])).toEqual([
      ['fire_perimeter', null, null, 4.875],
      ['ember_zone', 0.1, 'km', 4.975],
      ['ember_zone', 0.5, 'km', 5.375],
      ['ember_zone', 2, 'km', 6.875],
    ]);
    expect(rings[0].label).toBe('Fire area as a circle of 18,450 acres (no mapped perimeter)');
    expect(km2(rings[0].geometry) / (18450 * 0.00404686)).toBeCloseTo(1, 2); // the circle has the fire's area
    for (let i = 1; i < rings.length; i++) expect(km2(rings[i].geometry)).toBeGreaterThan(km2(rings[i - 1].geometry));
    rings.forEach((r) => expectValid(r.geometry));
  });

  it('with a mapped perimeter (clockwise as ArcGIS writes it): the perimeter, then buffers that contain it', () => {
    const perimeter: Polygon = {
      type: 'Polygon',
      coordinates: [
        [
          [-122.1, 40.03],
          [-122.1, 40.11],
          [-122.0, 40.11],
          [-122.0, 40.03],
          [-122.1, 40.03],
        ],
      ],
    };
    const rings = wildfireRings({ kind: 'wildfire', acres: 16000, perimeter }, center);
    expect(rings.map((r) => r.kind)).toEqual(['fire_perimeter', 'ember_zone', 'ember_zone', 'ember_zone']);
    expect(rings.map((r) => r.radiusKm)).toEqual([null, null, null, null]);
    rings.forEach((r) => expectValid(r.geometry));
    for (let i = 1; i < rings.length; i++) expect(booleanContains(rings[i].geometry, rings[i - 1].geometry)).toBe(true);
    // A 2 km buffer around a ~8.5 x 8.9 km box adds about 2 * perimeter + pi * 2^2 km2.
    const grow = km2(rings[3].geometry) - km2(rings[0].geometry);
    expect(grow).toBeGreaterThan(75);
    expect(grow).toBeLessThan(85);
  });

  it('size unknown: only the three bands, measured from the point of origin', () => {
    const rings = wildfireRings({ kind: 'wildfire', acres: null }, center);
    expect(rings.map((r) => r.radiusKm)).toEqual([0.1, 0.5, 2]);
    expect(rings[0].label).toContain('fire size unknown');
  });
});
