import booleanPointInPolygon from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Position } from 'geojson';
import { describe, expect, it } from 'vitest';
import { areaFromContourLines, areasFromGrid, shakemapRings, type MmiGrid } from './shakemap.js';
import { signedArea } from './polygon.js';

const square = (x0: number, y0: number, x1: number, y1: number): Position[] => [
  [x0, y0],
  [x1, y0],
  [x1, y1],
  [x0, y1],
  [x0, y0],
];
const inside = (g: MultiPolygon, p: Position) => booleanPointInPolygon(p, g);

describe('areaFromContourLines (cont_mmi.json)', () => {
  it('a contour inside another is a hole, one inside the hole an island again (even-odd)', () => {
    const g = areaFromContourLines([square(0, 0, 10, 10), square(2, 2, 8, 8), square(4, 4, 6, 6)]) as MultiPolygon;
    expect(g.type).toBe('MultiPolygon');
    expect(g.coordinates.map((p) => p.length)).toEqual([2, 1]); // outer with its hole, then the island
    expect(inside(g, [1, 1])).toBe(true);
    expect(inside(g, [3, 3])).toBe(false);
    expect(inside(g, [5, 5])).toBe(true);
    // RFC 7946: exteriors counter-clockwise, holes clockwise.
    expect(signedArea(g.coordinates[0][0])).toBeGreaterThan(0);
    expect(signedArea(g.coordinates[0][1])).toBeLessThan(0);
  });

  it('joins a contour cut into pieces (in either direction) and closes a line left open at the map edge', () => {
    const pieces = [
      [
        [0, 0],
        [4, 0],
        [4, 4],
      ],
      [
        [0, 4],
        [0, 0],
      ],
      [
        [0, 4],
        [4, 4],
      ],
    ];
    const g = areaFromContourLines(pieces) as MultiPolygon;
    expect(g.coordinates).toHaveLength(1);
    expect(inside(g, [2, 2])).toBe(true);
    const open = areaFromContourLines([
      [
        [0, 0],
        [4, 0],
        [4, 4],
        [0, 4],
      ],
    ]) as MultiPolygon;
    expect(inside(open, [2, 2])).toBe(true);
  });

  it('a degenerate contour (two points, or one point repeated) draws nothing', () => {
    expect(
      areaFromContourLines([
        [
          [0, 0],
          [1, 1],
        ],
      ]),
    ).toBeNull();
    expect(
      areaFromContourLines([
        [
          [1, 1],
          [1, 1],
          [1, 1],
          [1, 1],
        ],
      ]),
    ).toBeNull();
  });
});

describe('areasFromGrid (grid.xml)', () => {
  // 5 × 5 nodes, 0.1° apart, north row first, from 120.0 W / 38.0 N: MMI 9 at the centre node, 5 around it, 3 at the edge.
  const values = [3, 3, 3, 3, 3, 3, 5, 5, 5, 3, 3, 5, 9, 5, 3, 3, 5, 5, 5, 3, 3, 3, 3, 3, 3];
  const grid: MmiGrid = {
    nx: 5,
    ny: 5,
    lonMin: -120,
    latMax: 38,
    dLonDeg: 0.1,
    dLatDeg: 0.1,
    mmi: Float64Array.from(values),
  };

  it('contours each level around the right nodes, in [lng, lat]', () => {
    const levels = areasFromGrid(grid, [8, 6, 4, 2]);
    expect(levels.map((l) => l.mmi)).toEqual([8, 6, 4, 2]);
    const [viii, vi, iv, ii] = levels.map((l) => l.geometry as MultiPolygon);
    const centre: Position = [-119.8, 37.8];
    expect(inside(viii, centre)).toBe(true);
    expect(inside(viii, [-119.9, 37.8])).toBe(false); // the MMI 5 node next to it
    // MMI 6 sits a quarter of the way from 9 to 5: 0.025° from the centre node, linear interpolation.
    const [w, , e] = [
      Math.min(...viii.coordinates[0][0].map((p) => p[0])),
      0,
      Math.max(...viii.coordinates[0][0].map((p) => p[0])),
    ];
    expect(e - w).toBeCloseTo(0.1 * 2 * 0.25, 6);
    expect(inside(vi, centre)).toBe(true);
    expect(inside(iv, [-119.9, 37.9])).toBe(true);
    expect(inside(iv, [-119.99, 37.99])).toBe(false);
    // Everything is at or above 2: the whole grid, clamped to its own extent (not half a node beyond).
    const xs = ii.coordinates.flat(2).map((p) => p[0]);
    const ys = ii.coordinates.flat(2).map((p) => p[1]);
    expect([Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)]).toEqual([-120, -119.6, 37.6, 38]);
  });

  it('a level the grid never reaches has no area; missing nodes count as below', () => {
    expect(areasFromGrid({ ...grid, mmi: Float64Array.from(values.map((v) => (v === 9 ? NaN : v))) }, [8])).toEqual([]);
  });
});

describe('shakemapRings', () => {
  it('innermost first, labelled with the ShakeMap version, no radius', () => {
    const g: MultiPolygon = { type: 'MultiPolygon', coordinates: [[square(0, 0, 1, 1)]] };
    const rings = shakemapRings(
      {
        version: '7',
        product: 'cont_mmi.json',
        levels: [
          { mmi: 4, geometry: g },
          { mmi: 8, geometry: g },
        ],
      },
      (m) => `MMI ${m}`,
    );
    expect(rings.map((r) => [r.threshold, r.label, r.radiusKm, r.kind, r.estimate])).toEqual([
      [8, 'MMI 8, USGS ShakeMap v7', null, 'mmi', undefined],
      [4, 'MMI 4, USGS ShakeMap v7', null, 'mmi', undefined],
    ]);
  });
});
