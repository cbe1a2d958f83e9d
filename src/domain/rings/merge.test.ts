import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { circlePolygon } from '../../lib/geo.js';
import type { Ring } from '../event.js';
import { mergeRings, ringKindsOf } from './merge.js';

const c = { lat: 40, lng: -122 };
const ring = (kind: string, radiusKm: number, extra: Partial<Ring> = {}): Ring => ({
  kind,
  label: `${kind} ${radiusKm}`,
  threshold: null,
  unit: null,
  radiusKm,
  geometry: circlePolygon(c.lat, c.lng, radiusKm) as Polygon,
  ...extra,
});
const kinds = (rings: Ring[] | null) => rings?.map((r) => r.label) ?? null;

const wind = [ring('wind_kt', 80), ring('wind_kt', 150), ring('wind_kt', 280)];
const cone = [ring('forecast_cone', 900)];
const mapped = [ring('fire_perimeter', 8), ring('ember_zone', 10)];
const circles = [ring('fire_perimeter', 6, { estimate: true }), ring('ember_zone', 8, { estimate: true })];
const fireKinds = ringKindsOf({ kind: 'wildfire', acres: 1 }, circles);

describe('mergeRings: one event, several feeds of its source', () => {
  it('a cone keeps the wind rings, and wind rings keep the cone; outermost last either way', () => {
    expect(
      kinds(
        mergeRings(
          wind,
          cone,
          ringKindsOf({ kind: 'polygon', geometry: cone[0].geometry, label: 'cone', ringKind: 'forecast_cone' }, cone),
          true,
        ),
      ),
    ).toEqual(['wind_kt 80', 'wind_kt 150', 'wind_kt 280', 'forecast_cone 900']);
    expect(kinds(mergeRings(cone, wind, ringKindsOf({ kind: 'hurricane', windRadiiNm: {} }, wind), true))).toEqual([
      'wind_kt 80',
      'wind_kt 150',
      'wind_kt 280',
      'forecast_cone 900',
    ]);
  });

  it('a newer fix with no wind rings (a 30-kt low) removes the old ones: the record speaks for wind_kt', () => {
    expect(
      kinds(
        mergeRings(
          [...wind, ...cone],
          [],
          ringKindsOf({ kind: 'hurricane', windRadiiNm: {}, maxWindKt: 30 }, []),
          true,
        ),
      ),
    ).toEqual(['forecast_cone 900']);
  });

  it('a point update (estimates) keeps the mapped perimeter; a perimeter replaces the circles', () => {
    expect(kinds(mergeRings(mapped, circles, fireKinds, true))).toEqual(['fire_perimeter 8', 'ember_zone 10']);
    expect(kinds(mergeRings(circles, mapped, fireKinds, true))).toEqual(['fire_perimeter 8', 'ember_zone 10']);
    expect(kinds(mergeRings(circles, [ring('fire_perimeter', 7, { estimate: true })], fireKinds, true))).toEqual([
      'fire_perimeter 7',
    ]);
  });

  it('an older record brings only the source geometry the event lacks', () => {
    expect(kinds(mergeRings(circles, mapped, fireKinds, false))).toEqual(['fire_perimeter 8', 'ember_zone 10']);
    expect(mergeRings(mapped, circles, fireKinds, false)).toBeNull();
    expect(mergeRings(wind, cone, new Set(['forecast_cone']), false)).toBeNull();
  });

  it('an input that says "no rings" clears them; nothing held means the record\'s rings as drawn', () => {
    expect(mergeRings(wind, [], ringKindsOf({ kind: 'none', reason: 'x' }, []), true)).toEqual([]);
    expect(mergeRings([], circles, fireKinds, true)).toEqual(circles);
  });
});
