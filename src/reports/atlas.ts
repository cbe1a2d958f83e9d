/**
 * County and state outlines from the us-atlas package (US Census Bureau cartographic boundaries, 1:10M,
 * TopoJSON), converted to GeoJSON once per process, and the reverse geocoding of a point to its county and
 * state (ICS-209 blocks 16-17) by point-in-polygon on the same outlines.
 */
import { createRequire } from 'node:module';
import { geoBounds, geoContains } from 'd3-geo';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Place } from './domain/inputs.js';

type Outline = Feature<Polygon | MultiPolygon, { name: string }>;

let cache: { states: Outline[]; counties: Outline[]; bounds: Map<Outline, [number, number, number, number]> } | undefined;

export function atlas() {
  if (cache) return cache;
  const require = createRequire(import.meta.url);
  const c = require('us-atlas/counties-10m.json') as Topology<{ counties: GeometryCollection<{ name: string }>; states: GeometryCollection<{ name: string }> }>;
  const s = require('us-atlas/states-10m.json') as Topology<{ states: GeometryCollection<{ name: string }> }>;
  const counties = feature(c, c.objects.counties).features as Outline[];
  const states = feature(s, s.objects.states).features as Outline[];
  const bounds = new Map<Outline, [number, number, number, number]>();
  for (const f of [...counties, ...states]) {
    const [[w, so], [e, n]] = geoBounds(f);
    bounds.set(f, w > e ? [-180, so, 180, n] : [w, so, e, n]);
  }
  cache = { states, counties, bounds };
  return cache;
}

export function placeOf(lat: number, lng: number): Place {
  const { counties, states, bounds } = atlas();
  const hit = (f: Outline) => {
    const [w, s, e, n] = bounds.get(f)!;
    return lng >= w && lng <= e && lat >= s && lat <= n && geoContains(f, [lng, lat]);
  };
  const county = counties.find(hit);
  const stateFips = county ? String(county.id).slice(0, 2) : null;
  const state = stateFips ? states.find((f) => String(f.id) === stateFips) : states.find(hit);
  return {
    county: county ? county.properties.name : null,
    countyFips: county ? String(county.id) : null,
    state: state ? state.properties.name : null,
    stateFips: state ? String(state.id) : null,
  };
}
