/**
 * County and state outlines from the us-atlas package (US Census Bureau cartographic boundaries, 1:10M,
 * TopoJSON), converted to GeoJSON once per process, and the reverse geocoding of a point to its county and
 * state (ICS-209 blocks 16-17) by point-in-polygon on the same outlines.
 */
import { createRequire } from 'node:module';
import { geoBounds, geoContains, geoDistance } from 'd3-geo';
import { EARTH_RADIUS_KM } from '../lib/geo.js';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { Place } from './domain/inputs.js';

type Outline = Feature<Polygon | MultiPolygon, { name: string }>;

let cache:
  { states: Outline[]; counties: Outline[]; bounds: Map<Outline, [number, number, number, number]> } | undefined;

export function atlas() {
  if (cache) return cache;
  const require = createRequire(import.meta.url);
  const c = require('us-atlas/counties-10m.json') as Topology<{
    counties: GeometryCollection<{ name: string }>;
    states: GeometryCollection<{ name: string }>;
  }>;
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

/** How far off the coast a point may be and still be placed in the nearest county (a storm centre at landfall). */
export const OFFSHORE_KM = 50;

export function placeOf(lat: number, lng: number): Place {
  const { counties, states, bounds } = atlas();
  const near = (f: Outline, padDeg: number) => {
    const [w, s, e, n] = bounds.get(f)!;
    return lng >= w - padDeg && lng <= e + padDeg && lat >= s - padDeg && lat <= n + padDeg;
  };
  let county = counties.find((f) => near(f, 0) && geoContains(f, [lng, lat]));
  let offshoreKm: number | null = county ? 0 : null;
  if (!county) {
    // Off the coast: the county with the nearest boundary vertex within OFFSHORE_KM.
    const pad = OFFSHORE_KM / 80;
    let best = Infinity;
    for (const f of counties) {
      if (!near(f, pad)) continue;
      const polys = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
      for (const poly of polys)
        for (const [x, y] of poly[0]) {
          const d = geoDistance([lng, lat], [x, y]) * EARTH_RADIUS_KM;
          if (d < best) {
            best = d;
            county = f;
          }
        }
    }
    if (best > OFFSHORE_KM) county = undefined;
    else offshoreKm = Math.round(best);
  }
  const stateFips = county ? String(county.id).slice(0, 2) : null;
  const state = stateFips ? states.find((f) => String(f.id) === stateFips) : undefined;
  return {
    county: county ? county.properties.name : null,
    countyFips: county ? String(county.id) : null,
    state: state ? state.properties.name : null,
    stateFips: state ? String(state.id) : null,
    offshoreKm,
  };
}
