/**
 * boxWhollyInside (wholly-inside.ts): a box is known to be inside a polygon only when the polygon's boundary
 * stays clear of it and its centre is inside; anything near the boundary, in a hole or outside is not.
 */
import { describe, expect, it } from 'vitest';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { boxWhollyInside } from './wholly-inside.js';

/** A 64-gon of `radius` degrees around (x, y), closed, counter-clockwise (as a ring polygon is drawn). */
const circle = (x: number, y: number, radius: number): Position[] => {
  const ring = Array.from({ length: 64 }, (_, k): Position => {
    const a = (2 * Math.PI * k) / 64;
    return [x + radius * Math.cos(a), y + radius * Math.sin(a)];
  });
  return [...ring, ring[0]];
};

describe('boxWhollyInside', () => {
  const disc: Polygon = { type: 'Polygon', coordinates: [circle(-81, 27, 3)] };

  it('says inside for a box well within the polygon', () => {
    expect(boxWhollyInside(disc, [-81.5, 26.5, -80.5, 27.5])).toBe(true);
  });

  it('does not for a box the boundary crosses, one outside, or one just touching the boundary', () => {
    expect(boxWhollyInside(disc, [-79, 26.5, -77, 27.5])).toBe(false);
    expect(boxWhollyInside(disc, [-70, 26.5, -69, 27.5])).toBe(false);
    expect(boxWhollyInside(disc, [-81.5, 26.5, -78, 27.5])).toBe(false); // the rightmost vertex is (-78, 27)
  });

  it('does not for a box in a hole of the polygon, nor one holding the hole', () => {
    const band: Polygon = { type: 'Polygon', coordinates: [circle(-81, 27, 3), circle(-81, 27, 1).reverse()] };
    expect(boxWhollyInside(band, [-81.2, 26.8, -80.8, 27.2])).toBe(false);
    expect(boxWhollyInside(band, [-82.5, 25.5, -79.5, 28.5])).toBe(false);
    expect(boxWhollyInside(band, [-83.6, 26.8, -83.2, 27.2])).toBe(true); // in the band itself
  });

  it('reads every part of a multipolygon', () => {
    const two: MultiPolygon = { type: 'MultiPolygon', coordinates: [[circle(-90, 30, 1)], [circle(-81, 27, 3)]] };
    expect(boxWhollyInside(two, [-81.5, 26.5, -80.5, 27.5])).toBe(true);
    expect(boxWhollyInside(two, [-90.2, 29.8, -89.8, 30.2])).toBe(true);
    expect(boxWhollyInside(two, [-86, 28.8, -85.5, 29.2])).toBe(false);
  });
});
