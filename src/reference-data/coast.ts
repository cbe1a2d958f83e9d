/**
 * Distance from each cell centre to the sea coast, for the storm-surge taper. The coastline is the part
 * of the county mesh that only one county touches (us-atlas counties-10m: the outer boundary of the
 * country), minus land borders and Great Lakes shores, removed with coarse boxes: the US–Mexico border
 * west of the Rio Grande mouth (97.14°W), the 49th parallel, the Maine–New Brunswick/Quebec border and
 * the St Lawrence north of 44.98°N, and the Great Lakes (41.3°N+, 74–92.3°W) [judgement]. Alaska's
 * land border is not removed: hurricanes never reach it, and surge there is hurricane-driven (0).
 */
import { createRequire } from 'node:module';
import Flatbush from 'flatbush';
import type { GeometryCollection, Topology } from 'topojson-specification';
import type { BuildCell } from './regions.js';
import { flatDistanceKm } from './cell-query.js';

function isLandBorderOrLake(lng: number, lat: number): boolean {
  if (lng > -117.1 && lng < -97.14 && lat < 32.8 && !(lng > -97.6 && lat > 26.02)) return true; // Mexico
  if (lat > 48.98 && lng > -123.0 && lng < -95.1) return true; // 49th parallel
  if (lat >= 44.98 && lng > -95.2 && lng < -66.8) return true; // Quebec/New Brunswick, St Lawrence, Superior
  if (lat > 41.3 && lng < -74.0 && lng > -92.3) return true; // Great Lakes
  return false;
}

/**
 * The outer boundary of the county mesh. topojson-client and the mesh are required here, at first use: a
 * module that imports this one (the surge zone of `portfolio exposure`) would otherwise load them on every
 * start, where only a surge question needs them.
 */
function countyOuterMesh(): ReturnType<typeof import('topojson-client').mesh> {
  const require = createRequire(import.meta.url);
  const { mesh } = require('topojson-client') as typeof import('topojson-client');
  const topo = require('us-atlas/counties-10m.json') as Topology<{ counties: GeometryCollection }>;
  return mesh(topo, topo.objects.counties, (a, b) => a === b);
}

export function coastVertices(): Array<[number, number]> {
  const outer = countyOuterMesh();
  const out: Array<[number, number]> = [];
  for (const line of outer.coordinates)
    for (const [lng, lat] of line) if (!isLandBorderOrLake(lng, lat)) out.push([lng, lat]);
  return out;
}

/**
 * The same coastline with points added along every segment so that no two consecutive points are more
 * than stepDeg apart: the 1:10M outline has vertices kilometres apart on straight shores, and a distance
 * to the nearest vertex would then overstate how far inland a point is by up to half that spacing.
 */
export function denseCoastPoints(stepDeg: number): Array<[number, number]> {
  const outer = countyOuterMesh();
  const out: Array<[number, number]> = [];
  for (const line of outer.coordinates) {
    for (let i = 0; i < line.length; i++) {
      const [x1, y1] = line[i];
      if (isLandBorderOrLake(x1, y1)) continue;
      out.push([x1, y1]);
      if (i + 1 >= line.length) continue;
      const [x2, y2] = line[i + 1];
      if (isLandBorderOrLake(x2, y2)) continue;
      const n = Math.floor(Math.hypot(x2 - x1, y2 - y1) / stepDeg);
      for (let k = 1; k <= n; k++) out.push([x1 + ((x2 - x1) * k) / (n + 1), y1 + ((y2 - y1) * k) / (n + 1)]);
    }
  }
  return out;
}

/** Nearest coast vertex distance (km) per cell, searched within searchKm (Infinity beyond). */
export function coastDistanceKm(cells: BuildCell[], vertices: Array<[number, number]>, searchKm: number): Float64Array {
  const index = new Flatbush(vertices.length);
  for (const [lng, lat] of vertices) index.add(lng, lat, lng, lat);
  index.finish();
  const out = new Float64Array(cells.length).fill(Infinity);
  cells.forEach((c, i) => {
    const dLat = searchKm / 111;
    const dLng = dLat / Math.max(0.1, Math.cos((c.lat * Math.PI) / 180));
    for (const k of index.search(c.lng - dLng, c.lat - dLat, c.lng + dLng, c.lat + dLat)) {
      const d = flatDistanceKm(c.lat, c.lng, vertices[k][1], vertices[k][0]);
      if (d < out[i]) out[i] = d;
    }
  });
  return out;
}

/** Beyond this distance from the coast (km) the surge taper is 0: no surge exposure (also src/portfolios/surge-zone.ts). */
export const SURGE_REACH_KM = 60;

/** Surge exposure taper: 1 within 10 km of the coast, falling linearly to 0 at 60 km [judgement, see docs/scoring.md]. */
export function surgeTaper(distanceKm: number): number {
  if (distanceKm <= 10) return 1;
  if (distanceKm >= SURGE_REACH_KM) return 0;
  return (SURGE_REACH_KM - distanceKm) / 50;
}
