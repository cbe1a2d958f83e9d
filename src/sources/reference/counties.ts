/**
 * US county shapes from us-atlas@3 `counties-10m.json` (Census cartographic boundaries at 1:10M,
 * TopoJSON, ids = 5-digit state+county FIPS; https://github.com/topojson/us-atlas). Loaded lazily once
 * per process (~0.8 MB); lookups afterwards are Map hits plus a topojson `merge` of the named counties,
 * which dissolves shared borders so neighbouring counties become one polygon instead of many that touch.
 */
import { createRequire } from 'node:module';
import { feature, merge } from 'topojson-client';
import type {
  GeometryObject,
  MultiPolygon as TopoMultiPolygon,
  Polygon as TopoPolygon,
  Topology,
} from 'topojson-specification';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';
import { area } from '@turf/area';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import { centerOfMass } from '@turf/center-of-mass';
import { pointOnFeature } from '@turf/point-on-feature';
import { normalizePolygon } from '../../domain/rings/polygon.js';
import { round6 } from '../../lib/geo.js';

type CountyObject = TopoPolygon | TopoMultiPolygon;
interface Atlas {
  topology: Topology;
  byFips: Map<string, CountyObject>;
}
interface CountyInfo {
  areaKm2: number;
  lat: number;
  lng: number;
}

/**
 * FIPS codes the NWS may still or already send that us-atlas@3 (2017 vintage) spells differently.
 * 02063/02066: Chugach and Copper River census areas, split out of Valdez-Cordova (02261) in 2019;
 * 02270 -> 02158 (Wade Hampton renamed Kusilvak, 2015); 46113 -> 46102 (Shannon renamed Oglala Lakota,
 * 2015); 51515 -> 51019 (Bedford city merged into Bedford County, 2013).
 */
const ALIAS: Record<string, string> = {
  '02063': '02261',
  '02066': '02261',
  '02270': '02158',
  '46113': '46102',
  '51515': '51019',
};

let atlas: Atlas | null = null;
const infoCache = new Map<string, CountyInfo>();

function loadAtlas(): Atlas {
  if (atlas) return atlas;
  const topology = createRequire(import.meta.url)('us-atlas/counties-10m.json') as Topology;
  const counties = topology.objects.counties as { geometries: GeometryObject[] };
  const byFips = new Map<string, CountyObject>();
  for (const g of counties.geometries) {
    if ((g.type === 'Polygon' || g.type === 'MultiPolygon') && typeof g.id === 'string') byFips.set(g.id, g);
  }
  atlas = { topology, byFips };
  return atlas;
}

/** The us-atlas id for a 5-digit county FIPS code, or null when there is no county shape. */
export function countyId(fips5: string): string | null {
  const { byFips } = loadAtlas();
  const id = ALIAS[fips5] ?? fips5;
  return byFips.has(id) ? id : null;
}

export interface CountiesShape {
  /** The named counties merged, RFC 7946 orientation, coordinates rounded to 1e-6 degrees. */
  geometry: MultiPolygon;
  /** A point inside the largest named county (its area centroid when that lies inside it). */
  lat: number;
  lng: number;
}

/** Merged shape of the given us-atlas county ids (see countyId); null when none is given. */
export function countiesShape(ids: string[]): CountiesShape | null {
  const { topology, byFips } = loadAtlas();
  const objects = [...new Set(ids)].map((id) => byFips.get(id)).filter((o): o is CountyObject => o !== undefined);
  if (!objects.length) return null;
  const merged = merge(topology, objects);
  const geometry = normalizePolygon({
    type: 'MultiPolygon',
    coordinates: merged.coordinates.map((p) => p.map(roundRing)),
  });
  if (!geometry) return null;
  let best: CountyInfo | null = null;
  for (const o of objects) {
    const info = countyInfo(topology, o);
    if (!best || info.areaKm2 > best.areaKm2) best = info;
  }
  return { geometry, lat: best!.lat, lng: best!.lng };
}

function countyInfo(topology: Topology, o: CountyObject): CountyInfo {
  const id = String(o.id);
  const hit = infoCache.get(id);
  if (hit) return hit;
  const f = feature(topology, o) as Feature<Polygon | MultiPolygon>;
  let p = centerOfMass(f);
  if (!booleanPointInPolygon(p, f)) p = pointOnFeature(f);
  const [lng, lat] = p.geometry.coordinates;
  const info = { areaKm2: area(f) / 1e6, lat: round6(lat), lng: round6(lng) };
  infoCache.set(id, info);
  return info;
}

const roundRing = (ring: Position[]): Position[] => ring.map((q) => [round6(q[0]), round6(q[1])]);
