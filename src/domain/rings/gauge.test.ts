import { area } from '@turf/area';
import { booleanClockwise } from '@turf/boolean-clockwise';
import { describe, expect, it } from 'vitest';
import type { FloodStages } from '../event.js';
import { floodCategory, gaugeRings } from './gauge.js';

const DAWM2: FloodStages = { actionFt: 5, floodFt: 7.5, moderateFt: 11, majorFt: 16 }; // Seneca Creek at Dawsonville
const center = { lat: 39.1280833, lng: -77.33577778 };

describe('floodCategory', () => {
  it('takes the highest category reached and passes over undefined ones', () => {
    expect([2.68, 5, 7.49, 7.5, 11, 16, 30].map((s) => floodCategory(s, DAWM2))).toEqual([
      'below_action',
      'action',
      'action',
      'minor',
      'moderate',
      'major',
      'major',
    ]);
    const noAction = { actionFt: null, floodFt: 3.4, moderateFt: 4.4, majorFt: 5.4 }; // CLNM2
    expect([1, 3.5].map((s) => floodCategory(s, noAction))).toEqual(['below_flood', 'minor']);
    expect(floodCategory(12, { actionFt: null, floodFt: null, moderateFt: 11, majorFt: null })).toBe('moderate');
    expect(floodCategory(4.36, { actionFt: null, floodFt: null, moderateFt: null, majorFt: null })).toBe('unknown');
    expect(floodCategory(null, DAWM2)).toBe('unknown');
  });
});

describe('gaugeRings', () => {
  it('one circle per category reached, radius growing with category, outermost last', () => {
    const rings = gaugeRings({ kind: 'gauge', stageFt: 12.3, stages: DAWM2 }, center);
    expect(rings.map((r) => [r.kind, r.threshold, r.unit, r.radiusKm])).toEqual([
      ['flood_reach', 5, 'ft', 1],
      ['flood_reach', 7.5, 'ft', 2],
      ['flood_reach', 11, 'ft', 5],
    ]);
    expect(rings[2].label).toBe('Moderate flood (stage >= 11 ft): gauge vicinity within 5 km, not an inundation map');
    for (const r of rings) {
      const ring = (r.geometry as { coordinates: number[][][] }).coordinates[0];
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      expect(booleanClockwise(ring)).toBe(false);
      expect(area(r.geometry) / 1e6 / (Math.PI * r.radiusKm! ** 2)).toBeCloseTo(1, 2);
    }
  });

  it('no rings below action stage or without categories', () => {
    expect(gaugeRings({ kind: 'gauge', stageFt: 2.68, stages: DAWM2 }, center)).toEqual([]);
    expect(
      gaugeRings(
        { kind: 'gauge', stageFt: 4.36, stages: { actionFt: null, floodFt: null, moderateFt: null, majorFt: null } },
        center,
      ),
    ).toEqual([]);
  });
});
