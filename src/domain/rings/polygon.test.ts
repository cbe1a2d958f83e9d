import { readFileSync } from 'node:fs';
import { booleanClockwise } from '@turf/boolean-clockwise';
import type { MultiPolygon, Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { sharedData } from '../../../test/helpers/paths.js';
import { normalizePolygon, polygonRings } from './polygon.js';

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
    const doc = JSON.parse(readFileSync(sharedData('feeds/nws_alerts/alerts_active_national_templated-times.json'), 'utf8'));
    const polys = doc.features.filter((f: { geometry: unknown }) => f.geometry);
    expect(polys).toHaveLength(71);
    for (const f of polys) {
      const rings = polygonRings({ kind: 'polygon', geometry: f.geometry, label: f.properties.event });
      expect(rings).toHaveLength(1);
      expect(rings[0]).toMatchObject({ kind: 'alert_area', label: f.properties.event, threshold: null, unit: null, radiusKm: null });
      expectValid(rings[0].geometry);
    }
  });

  it('closes open rings, fixes orientation of shells and holes, drops degenerate parts', () => {
    const shellCw = [[0, 0], [0, 10], [10, 10], [10, 0]];
    const holeCcw = [[2, 2], [4, 2], [4, 4], [2, 4], [2, 2]];
    const g = normalizePolygon({ type: 'MultiPolygon', coordinates: [[shellCw, holeCcw], [[[20, 20], [21, 20], [20, 20]]]] })!;
    expect(g.coordinates).toHaveLength(1);
    expectValid(g);
    expect(g.coordinates[0][0]).toEqual([[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]]);
    expect(polygonRings({ kind: 'polygon', geometry: { type: 'Polygon', coordinates: [[[1, 1], [2, 2], [1, 1]]] }, label: 'x' })).toEqual([]);
  });
});
