/**
 * The briefing map's geometry (src/reports/domain/map.ts), without a PDF: the ring colours stay in order in
 * grey-scale, GeoJSON rings are wound for d3-geo, the frame holds the rings and the event, the scale bar is
 * as long as it says, and the chart's scales keep every reading inside the plot.
 */
import { geoArea } from 'd3-geo';
import type { Polygon } from 'geojson';
import { describe, expect, it } from 'vitest';
import { layoutChart } from '../src/reports/domain/chart.js';
import {
  forD3,
  kmPerPoint,
  layoutMap,
  mapExtent,
  niceKm,
  RING_COLOURS,
  ringColour,
  ringDash,
} from '../src/reports/domain/map.js';
import { circlePolygon } from '../src/lib/geo.js';
import { geoMercator } from 'd3-geo';

/** Rec. 709 luma of a #rrggbb colour, 0-255: what a grey-scale printer keeps of it. */
const luma = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((o) => parseInt(hex.slice(o, o + 2), 16));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};

describe('briefing map', () => {
  it('ring colours get lighter from the innermost ring outwards, at least 25 grey levels apart, for 1 to 7 rings', () => {
    const l = RING_COLOURS.map(luma);
    for (let i = 1; i < l.length; i++) expect(l[i] - l[i - 1]).toBeGreaterThanOrEqual(25);
    for (let n = 1; n <= 7; n++) {
      const ls = Array.from({ length: n }, (_, i) => luma(ringColour(i, n)));
      for (let i = 1; i < n; i++) expect(ls[i] - ls[i - 1], `${n} rings`).toBeGreaterThanOrEqual(25);
      expect(new Set(Array.from({ length: n }, (_, i) => JSON.stringify(ringDash(i)))).size, `${n} rings`).toBe(n);
    }
  });

  it('winds RFC 7946 polygons (counter-clockwise) for d3-geo, so a ring is its small side, not the rest of the globe', () => {
    const ring = circlePolygon(26.6, -82, 100) as Polygon; // RFC 7946 winding
    const km2 = geoArea(forD3(ring)) * 6371.0088 ** 2;
    expect(km2).toBeGreaterThan(Math.PI * 100 ** 2 * 0.97);
    expect(km2).toBeLessThan(Math.PI * 100 ** 2 * 1.03);
    expect(forD3(forD3(ring))).toEqual(forD3(ring));
  });

  it('frames the rings and the event, draws them inside the frame, and gives a scale bar as long as it says', () => {
    const frame = { x: 40, y: 200, w: 532, h: 480 };
    const rings = [50, 150, 400].map((km) => ({
      label: `${km} km`,
      geometry: circlePolygon(26.6, -82, km) as Polygon,
    }));
    const m = layoutMap({
      frame,
      event: { lng: -82, lat: 26.6 },
      rings,
      track: [],
      hospitals: [
        { lng: -81.87, lat: 26.64, name: 'Fort Myers' },
        { lng: -100, lat: 40, name: 'far away' },
      ],
      states: [],
      counties: [],
    });
    const [w, s, e, n] = mapExtent({ event: { lng: -82, lat: 26.6 }, rings, track: [] });
    expect(w).toBeLessThan(-82 - 400 / 100);
    expect(e).toBeGreaterThan(-82 + 400 / 100);
    expect(s).toBeLessThan(26.6 - 400 / 111.2);
    expect(n).toBeGreaterThan(26.6 + 400 / 111.2);
    expect(m.paths.filter((p) => p.kind === 'ring').map((p) => p.ring)).toEqual([2, 1, 0]); // outermost painted first
    expect(m.points.filter((p) => p.kind === 'hospital').map((p) => p.label)).toEqual(['Fort Myers']);
    const ev = m.points.find((p) => p.kind === 'event')!;
    expect(Math.abs(ev.x - (frame.x + frame.w / 2))).toBeLessThan(frame.w / 4);
    expect(m.northArrow.x).toBeGreaterThan(frame.x);
    expect(m.northArrow.x).toBeLessThan(frame.x + frame.w);
    // The bar's length in points, turned back into km at the map's centre, is the km it is labelled with.
    const projection = geoMercator().fitExtent(
      [
        [frame.x + 6, frame.y + 6],
        [frame.x + frame.w - 6, frame.y + frame.h - 6],
      ],
      {
        type: 'MultiPoint',
        coordinates: [
          [m.extent[0], m.extent[1]],
          [m.extent[2], m.extent[3]],
        ],
      },
    );
    const kmPt = kmPerPoint(projection, frame.x + frame.w / 2, frame.y + frame.h / 2);
    expect(m.scaleBar.lengthPt * kmPt).toBeGreaterThan(m.scaleBar.km * 0.9);
    expect(m.scaleBar.lengthPt * kmPt).toBeLessThan(m.scaleBar.km * 1.1);
    expect(m.scaleBar.label).toMatch(new RegExp(`^${m.scaleBar.km} km \\(\\d+ mi\\)$`));
    expect(m.scaleBar.lengthPt).toBeLessThanOrEqual(frame.w / 4 + 1);
  });

  it('picks round scale lengths', () => {
    expect([niceKm(0.8), niceKm(3), niceKm(7), niceKm(19), niceKm(180), niceKm(999)]).toEqual([
      0.5, 2, 5, 10, 100, 500,
    ]);
  });

  it('charts every reading inside the plot, with ticks on the value axis', () => {
    const frame = { x: 40, y: 100, w: 532, h: 170 };
    const c = layoutChart(
      {
        name: 'Wind',
        unit: 'kt',
        source: 't',
        points: [
          { time: '2022-09-22T18:00:00Z', value: 30 },
          { time: '2022-09-28T12:00:00Z', value: 140 },
          { time: '2022-09-29T00:00:00Z', value: 100 },
        ],
      },
      frame,
    );
    for (const [x, y] of c.line) {
      expect(x).toBeGreaterThanOrEqual(c.frame.x);
      expect(x).toBeLessThanOrEqual(c.frame.x + c.frame.w);
      expect(y).toBeGreaterThanOrEqual(c.frame.y);
      expect(y).toBeLessThanOrEqual(c.frame.y + c.frame.h);
    }
    expect(c.yTicks.map((t) => t.label)).toContain('140');
    expect(c.yTicks.map((t) => t.label)).toContain('0');
    expect(c.yLabel).toBe('Wind (kt)');
  });
});
