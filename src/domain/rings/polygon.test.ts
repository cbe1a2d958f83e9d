import { readFileSync } from 'node:fs';
import { booleanClockwise } from '@turf/boolean-clockwise';
import type { MultiPolygon, Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../../../test/helpers/paths.js';
import { area } from '@turf/area';
import { booleanValid } from '@turf/turf';
import { destination } from '../../lib/geo.js';
import { buildRings } from './index.js';
import { normalizePolygon, polygonRings, splitAtAntimeridian } from './polygon.js';

function expectValid(g: Polygon | MultiPolygon) {
  for (const rings of g.type === 'Polygon' ? [g.coordinates] : g.coordinates) {
    rings.forEach((ring, i) => {
      expect(ring.length).toBeGreaterThanOrEqual(4);
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      expect(booleanClockwise(ring)).toBe(i > 0);
    });
  }
}

describe('polygonRings', () => {
  it('every real NWS alert polygon becomes one valid alert_area ring', () => {
    const doc = JSON.parse(
      readFileSync(sharedData('feeds/nws_alerts/alerts_active_national_templated-times.json'), 'utf8'),
    );
    const polys = doc.features.filter((f: { geometry: unknown }) => f.geometry);
    expect(polys).toHaveLength(71);
    for (const f of polys) {
      const rings = polygonRings({ kind: 'polygon', geometry: f.geometry, label: f.properties.event });
      expect(rings).toHaveLength(1);
      expect(rings[0]).toMatchObject({
        kind: 'alert_area',
        label: f.properties.event,
        threshold: null,
        unit: null,
        radiusKm: null,
      });
      expectValid(rings[0].geometry);
    }
  });

  it('closes open rings, fixes orientation of shells and holes, drops degenerate parts', () => {
    const shellCw = [
      [0, 0],
      [0, 10],
      [10, 10],
      [10, 0],
    ];
    const holeCcw = [
      [2, 2],
      [4, 2],
      [4, 4],
      [2, 4],
      [2, 2],
    ];
    const g = normalizePolygon({
      type: 'MultiPolygon',
      coordinates: [
        [shellCw, holeCcw],
        [
          [
            [20, 20],
            [21, 20],
            [20, 20],
          ],
        ],
      ],
    })!;
    expect(g.coordinates).toHaveLength(1);
    expectValid(g);
    expect(g.coordinates[0][0]).toEqual([
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 10],
      [0, 0],
    ]);
    expect(
      polygonRings({
        kind: 'polygon',
        geometry: {
          type: 'Polygon',
          coordinates: [
            [
              [1, 1],
              [2, 2],
              [1, 1],
            ],
          ],
        },
        label: 'x',
      }),
    ).toEqual([]);
  });
});

describe('rings crossing the antimeridian are cut there (RFC 7946 §3.1.9)', () => {
  // Rat Islands, Aleutians (the 1965 M8.7 region): 51.3° N, 179.4° E; a circle of 150 km crosses 180°.
  const center = { lat: 51.3, lng: 179.4 };
  const circle = (lng: number) => ({
    type: 'Polygon' as const,
    coordinates: [
      Array.from({ length: 65 }, (_, i) => {
        const p = destination(center.lat, lng, 150, 360 - ((i % 64) * 360) / 64);
        return p;
      }),
    ],
  });

  it('a geodesic circle over 180° becomes a valid two-part MultiPolygon meeting at ±180, with its area', () => {
    const g = splitAtAntimeridian(circle(center.lng)) as MultiPolygon;
    expect(g.type).toBe('MultiPolygon');
    expect(g.coordinates).toHaveLength(2);
    expectValid(g);
    const lngs = g.coordinates.map((p) => p[0].map((q) => q[0]));
    expect(Math.max(...lngs[0])).toBe(180);
    expect(Math.min(...lngs[1])).toBe(-180);
    for (const part of lngs) for (const x of part) expect(Math.abs(x)).toBeLessThanOrEqual(180);
    for (const part of g.coordinates) expect(booleanValid({ type: 'Polygon', coordinates: part })).toBe(true);
    // The two parts together cover the circle: the same area as the same circle drawn away from 180°.
    const whole = area({ type: 'Feature', properties: {}, geometry: circle(0) });
    expect(area({ type: 'Feature', properties: {}, geometry: g }) / whole).toBeCloseTo(1, 2);
  });

  it('the same circle approached from the west side (centre at 179.9° W) splits the same way', () => {
    const g = splitAtAntimeridian(circle(-179.9)) as MultiPolygon;
    expect(g.type).toBe('MultiPolygon');
    expectValid(g);
  });

  it('geometries that do not cross come back untouched (the same object)', () => {
    const g = circle(-150);
    expect(splitAtAntimeridian(g)).toBe(g);
  });

  it('every ring builder is covered: an Aleutian quake and a storm on the date line get MultiPolygon rings', () => {
    const quake = buildRings({ kind: 'earthquake', magnitude: 7.5, depthKm: 20, region: 'west' }, center);
    expect(quake.length).toBeGreaterThan(0);
    for (const r of quake) {
      expect(r.geometry.type).toBe('MultiPolygon');
      expectValid(r.geometry);
    }
    const storm = buildRings(
      { kind: 'hurricane', windRadiiNm: { 34: { ne: 120, se: 100, sw: 80, nw: 90 } } },
      { lat: 20, lng: -179.8 },
    );
    expect(storm[0].geometry.type).toBe('MultiPolygon');
    expectValid(storm[0].geometry);
  });
});
