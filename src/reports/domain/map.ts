/**
 * The briefing's map, as geometry in page coordinates: pure (GeoJSON and numbers in, SVG path strings and
 * points out), so the layout is tested without a PDF. A Mercator projection is fitted to the rings, the
 * event and the storm's recent track (a local map: north is up everywhere, angles are true, and the scale
 * is read at the map's centre, which is what the scale bar states). d3-geo draws the paths and clips them to
 * the frame.
 */
import { geoArea, geoBounds, geoDistance, geoGraticule, geoMercator, geoPath, type GeoProjection } from 'd3-geo';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';
import { EARTH_RADIUS_KM } from '../../lib/geo.js';

export interface Frame {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface MapRing {
  label: string;
  geometry: Polygon | MultiPolygon;
}

export interface MapInput {
  frame: Frame;
  event: { lng: number; lat: number };
  /** Innermost first, as GET /events/{id}/rings lists them (outermost last). */
  rings: MapRing[];
  /** A storm's fixes, oldest first. */
  track: { lng: number; lat: number; time: string }[];
  hospitals: { lng: number; lat: number; name: string }[];
  states: Feature[];
  counties: Feature[];
}

export interface MapPath {
  kind: 'state' | 'county' | 'ring' | 'track' | 'graticule';
  d: string;
  ring?: number;
}
export interface MapPoint {
  kind: 'event' | 'hospital' | 'fix';
  x: number;
  y: number;
  label?: string;
}

export interface MapDrawing {
  frame: Frame;
  paths: MapPath[];
  points: MapPoint[];
  scaleBar: { x: number; y: number; lengthPt: number; km: number; label: string };
  northArrow: { x: number; y: number; size: number };
  /** [west, south, east, north] shown, degrees. */
  extent: [number, number, number, number];
  counties: number;
  states: number;
  hospitalsShown: number;
  /** How many rings there are (their colours depend on it). */
  rings: number;
}

/**
 * Ring fill and outline colours, innermost first: a sequential red ramp (ColorBrewer Reds, Brewer 2002,
 * www.ColorBrewer.org) whose lightness falls steadily, so the order survives grey-scale printing; outlines also
 * carry a distinct dash pattern per ring. Up to five rings take the darker end of the 5-class ramp (its
 * lightest class would vanish on white); six and seven take the 6- and 7-class ramps.
 */
export const RING_COLOURS = ['#a50f15', '#de2d26', '#fb6a4a', '#fcae91', '#fee5d9'] as const;
const RAMPS: Record<number, readonly string[]> = {
  6: ['#a50f15', '#de2d26', '#fb6a4a', '#fc9272', '#fcbba1', '#fee5d9'],
  7: ['#99000d', '#cb181d', '#ef3b2c', '#fb6a4a', '#fc9272', '#fcbba1', '#fee5d9'],
};
export const RING_DASHES: (number[] | null)[] = [
  null,
  [6, 2],
  [2, 2],
  [8, 3, 2, 3],
  [1, 3],
  [4, 4],
  [10, 2, 2, 2, 2, 2],
];

/** The colour of ring i (innermost 0) of n. */
export function ringColour(i: number, n: number = RING_COLOURS.length): string {
  const ramp = RAMPS[Math.min(n, 7)] ?? RING_COLOURS;
  return ramp[Math.min(i, ramp.length - 1)];
}

export function ringDash(i: number): number[] | null {
  return RING_DASHES[Math.min(i, RING_DASHES.length - 1)];
}

/** The hours of track before the latest fix that the map frames (older fixes are drawn when they fall inside). */
export const TRACK_FRAME_HOURS = 24;

/** GeoJSON (RFC 7946: exterior counter-clockwise) to d3-geo's spherical winding (exterior clockwise). */
export function forD3(g: Polygon | MultiPolygon): Polygon | MultiPolygon {
  const fix = (rings: Position[][]) =>
    rings.map((ring, i) => {
      const big = geoArea({ type: 'Polygon', coordinates: [ring] }) > 2 * Math.PI;
      // An exterior must enclose the small side; a hole the large one.
      return (i === 0) === big ? [...ring].reverse() : ring;
    });
  return g.type === 'Polygon'
    ? { type: 'Polygon', coordinates: fix(g.coordinates) }
    : { type: 'MultiPolygon', coordinates: g.coordinates.map(fix) };
}

/** The area the map frames: the rings, the event, and the last TRACK_FRAME_HOURS of track; with nothing else, a box of `minHalfKm` around the event. */
export function mapExtent(
  input: Pick<MapInput, 'event' | 'rings' | 'track'>,
  minHalfKm = 60,
): [number, number, number, number] {
  const pts: Position[] = [[input.event.lng, input.event.lat]];
  for (const r of input.rings) {
    const [[w, s], [e, n]] = geoBounds(forD3(r.geometry));
    pts.push([w, s], [e, n]);
  }
  if (input.track.length) {
    const last = Date.parse(input.track[input.track.length - 1].time);
    for (const f of input.track) if (last - Date.parse(f.time) <= TRACK_FRAME_HOURS * 3600e3) pts.push([f.lng, f.lat]);
  }
  let w = Math.min(...pts.map((p) => p[0]));
  let e = Math.max(...pts.map((p) => p[0]));
  let s = Math.min(...pts.map((p) => p[1]));
  let n = Math.max(...pts.map((p) => p[1]));
  // At least minHalfKm each way from the event, and a margin of 8 % around what must be seen.
  const dLat = minHalfKm / 111.2;
  const dLng = dLat / Math.max(0.1, Math.cos((input.event.lat * Math.PI) / 180));
  w = Math.min(w, input.event.lng - dLng);
  e = Math.max(e, input.event.lng + dLng);
  s = Math.min(s, input.event.lat - dLat);
  n = Math.max(n, input.event.lat + dLat);
  const mx = (e - w) * 0.08;
  const my = (n - s) * 0.08;
  return [w - mx, Math.max(-85, s - my), e + mx, Math.min(85, n + my)];
}

function boxFeature([w, s, e, n]: [number, number, number, number]): Feature {
  const steps = 16;
  const ring: Position[] = [];
  for (let i = 0; i <= steps; i++) ring.push([w + ((e - w) * i) / steps, s]);
  for (let i = 0; i <= steps; i++) ring.push([e, s + ((n - s) * i) / steps]);
  return { type: 'Feature', properties: {}, geometry: { type: 'MultiPoint', coordinates: ring.concat([[w, n]]) } };
}

/** A round length (1, 2 or 5 times a power of ten, km) no longer than a quarter of the frame. */
export function niceKm(maxKm: number): number {
  const p = 10 ** Math.floor(Math.log10(maxKm));
  for (const m of [5, 2, 1]) if (m * p <= maxKm) return m * p;
  return p;
}

export function kmPerPoint(projection: GeoProjection, x: number, y: number): number {
  const a = projection.invert!([x - 50, y]);
  const b = projection.invert!([x + 50, y]);
  if (!a || !b) return NaN;
  return (geoDistance(a, b) * EARTH_RADIUS_KM) / 100;
}

/** Features whose bounds meet the extent (a cheap prefilter before d3 clips them). */
function within(features: Feature[], [w, s, e, n]: [number, number, number, number]): Feature[] {
  return features.filter((f) => {
    const b = boundsOf(f);
    return b[0] <= e && b[2] >= w && b[1] <= n && b[3] >= s;
  });
}

const boundsCache = new WeakMap<Feature, [number, number, number, number]>();
function boundsOf(f: Feature): [number, number, number, number] {
  let b = boundsCache.get(f);
  if (!b) {
    const [[w, s], [e, n]] = geoBounds(f);
    // A feature across the antimeridian (Aleutians) has w > e: treat it as spanning every longitude.
    b = w > e ? [-180, s, 180, n] : [w, s, e, n];
    boundsCache.set(f, b);
  }
  return b;
}

export function layoutMap(input: MapInput): MapDrawing {
  const { frame } = input;
  const extent = mapExtent(input);
  const projection = geoMercator()
    .fitExtent(
      [
        [frame.x + 6, frame.y + 6],
        [frame.x + frame.w - 6, frame.y + frame.h - 6],
      ],
      boxFeature(extent),
    )
    .clipExtent([
      [frame.x, frame.y],
      [frame.x + frame.w, frame.y + frame.h],
    ]);
  const path = geoPath(projection).digits(2);
  const paths: MapPath[] = [];
  // What is visible: the frame may be wider or taller than the extent once the aspect is kept.
  const tl = projection.invert!([frame.x, frame.y])!;
  const br = projection.invert!([frame.x + frame.w, frame.y + frame.h])!;
  const visible: [number, number, number, number] = [tl[0], br[1], br[0], tl[1]];

  const counties = within(input.counties, visible);
  const states = within(input.states, visible);
  if (states.length === 0) {
    // Without outlines, a graticule gives the reader the scale of things: every degree on a local map, else every 10.
    const step = visible[2] - visible[0] < 20 ? 1 : 10;
    const d = path(geoGraticule().step([step, step])());
    if (d) paths.push({ kind: 'graticule', d });
  }
  for (const f of counties) {
    const d = path(f);
    if (d) paths.push({ kind: 'county', d });
  }
  for (const f of states) {
    const d = path(f);
    if (d) paths.push({ kind: 'state', d });
  }
  // Outermost first, so inner rings are painted over outer ones.
  for (let i = input.rings.length - 1; i >= 0; i--) {
    const d = path(forD3(input.rings[i].geometry));
    if (d) paths.push({ kind: 'ring', d, ring: i });
  }
  const points: MapPoint[] = [];
  if (input.track.length > 1) {
    const d = path({ type: 'LineString', coordinates: input.track.map((f) => [f.lng, f.lat]) });
    if (d) paths.push({ kind: 'track', d });
  }
  const inside = (p: [number, number] | null): p is [number, number] =>
    p !== null && p[0] >= frame.x && p[0] <= frame.x + frame.w && p[1] >= frame.y && p[1] <= frame.y + frame.h;
  for (const f of input.track) {
    const p = projection([f.lng, f.lat]);
    if (inside(p)) points.push({ kind: 'fix', x: p[0], y: p[1], label: f.time });
  }
  let hospitalsShown = 0;
  for (const h of input.hospitals) {
    const p = projection([h.lng, h.lat]);
    if (inside(p)) {
      points.push({ kind: 'hospital', x: p[0], y: p[1], label: h.name });
      hospitalsShown++;
    }
  }
  const ev = projection([input.event.lng, input.event.lat]);
  if (inside(ev)) points.push({ kind: 'event', x: ev[0], y: ev[1] });

  const kmPt = kmPerPoint(projection, frame.x + frame.w / 2, frame.y + frame.h / 2);
  const km = niceKm((frame.w / 4) * kmPt);
  const scaleBar = { x: frame.x + 12, y: frame.y + frame.h - 16, lengthPt: km / kmPt, km, label: scaleLabel(km) };
  return {
    frame,
    paths,
    points,
    scaleBar,
    extent: visible,
    northArrow: { x: frame.x + frame.w - 22, y: frame.y + 14, size: 22 },
    counties: counties.length,
    states: states.length,
    hospitalsShown,
    rings: input.rings.length,
  };
}

function scaleLabel(km: number): string {
  const mi = km / 1.609344;
  return `${km} km (${mi >= 10 ? Math.round(mi) : mi.toFixed(1)} mi)`;
}
