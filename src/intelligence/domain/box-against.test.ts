/**
 * boxAgainst (box-against.ts): a box is known to be inside (or outside) a polygon only when the polygon's
 * boundary stays clear of it, and its centre says which; a box the boundary comes near is 'crossed'.
 */
import { describe, expect, it } from 'vitest';
import type { MultiPolygon, Polygon, Position } from 'geojson';
import { boxAgainst } from './box-against.js';

/** A 64-gon of `radius` degrees around (x, y), closed, counter-clockwise (as a ring polygon is drawn). */
const circle = (x: number, y: number, radius: number): Position[] => {
  const ring = Array.from({ length: 64 }, (_, k): Position => {
    const a = (2 * Math.PI * k) / 64;
    return [x + radius * Math.cos(a), y + radius * Math.sin(a)];
  });
  return [...ring, ring[0]];
};

describe('boxAgainst', () => {
  const disc: Polygon = { type: 'Polygon', coordinates: [circle(-81, 27, 3)] };

  it('says inside for a box well within the polygon', () => {
    expect(boxAgainst(disc, [-81.5, 26.5, -80.5, 27.5])).toBe('inside');
  });

  it('says outside for a box clear of the polygon, crossed for one the boundary crosses or just touches', () => {
    expect(boxAgainst(disc, [-70, 26.5, -69, 27.5])).toBe('outside');
    expect(boxAgainst(disc, [-79, 26.5, -77, 27.5])).toBe('crossed');
    expect(boxAgainst(disc, [-81.5, 26.5, -78, 27.5])).toBe('crossed'); // the rightmost vertex is (-78, 27)
  });

  it('says outside for a box in a hole of the polygon, crossed for one holding the hole', () => {
    const band: Polygon = { type: 'Polygon', coordinates: [circle(-81, 27, 3), circle(-81, 27, 1).reverse()] };
    expect(boxAgainst(band, [-81.2, 26.8, -80.8, 27.2])).toBe('outside');
    expect(boxAgainst(band, [-82.5, 25.5, -79.5, 28.5])).toBe('crossed');
    expect(boxAgainst(band, [-83.6, 26.8, -83.2, 27.2])).toBe('inside'); // in the band itself
  });

  it('reads every part of a multipolygon', () => {
    const two: MultiPolygon = { type: 'MultiPolygon', coordinates: [[circle(-90, 30, 1)], [circle(-81, 27, 3)]] };
    expect(boxAgainst(two, [-81.5, 26.5, -80.5, 27.5])).toBe('inside');
    expect(boxAgainst(two, [-90.2, 29.8, -89.8, 30.2])).toBe('inside');
    expect(boxAgainst(two, [-86, 28.8, -85.5, 29.2])).toBe('outside');
  });
});
