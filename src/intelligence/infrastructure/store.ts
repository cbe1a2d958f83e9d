/**
 * The embedded facilities (data/infrastructure/), read once per process and indexed with flatbush (points
 * as zero-size boxes). Radius queries take the bbox of the circle (widened in longitude by 1/cos(lat)),
 * then the exact haversine distance; polygon queries take the polygon's bbox, then point in polygon (turf).
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import Flatbush from 'flatbush';
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { MultiPolygon, Polygon } from 'geojson';
import { bboxOf, haversineKm } from '../../lib/geo.js';
import { packageRoot } from '../../lib/package-root.js';
import {
  FACILITIES_FILE,
  META_FILE,
  facilityOf,
  type Facility,
  type FacilityLine,
  type InfraKind,
  type InfraMeta,
} from './format.js';

export interface InfraStore {
  meta: InfraMeta;
  facilities: Facility[];
  index: Flatbush;
}

const cache = new Map<string, InfraStore>();

export function defaultInfraDir(): string {
  return path.join(packageRoot(), 'data', 'infrastructure');
}

export function loadInfrastructure(dir: string = defaultInfraDir()): InfraStore {
  const key = path.resolve(dir);
  const hit = cache.get(key);
  if (hit) return hit;
  const file = path.join(key, FACILITIES_FILE);
  if (!fs.existsSync(file)) throw new Error(`embedded infrastructure ${file} is missing; run make data`);
  const meta = JSON.parse(fs.readFileSync(path.join(key, META_FILE), 'utf8')) as InfraMeta;
  const text = gunzipSync(fs.readFileSync(file)).toString('utf8');
  const facilities = text
    .split('\n')
    .filter(Boolean)
    .map((l) => facilityOf(JSON.parse(l) as FacilityLine));
  const index = new Flatbush(Math.max(1, facilities.length));
  for (const f of facilities) index.add(f.lng, f.lat, f.lng, f.lat);
  if (facilities.length === 0) index.add(0, 0, 0, 0);
  index.finish();
  const store = { meta, facilities, index };
  cache.set(key, store);
  return store;
}

export interface NearHit {
  facility: Facility;
  distanceKm: number;
}

/** Facilities of the kinds asked within radiusKm of the point, nearest first (ties by kind, then id). */
export function facilitiesNear(
  s: InfraStore,
  lat: number,
  lng: number,
  radiusKm: number,
  kinds: readonly InfraKind[],
): NearHit[] {
  const dLat = radiusKm / 111.0;
  const cos = Math.max(0.01, Math.cos((Math.min(89, Math.abs(lat) + dLat) * Math.PI) / 180));
  const dLng = Math.min(180, radiusKm / (111.32 * cos));
  const boxes: [number, number, number, number][] = [[lng - dLng, lat - dLat, lng + dLng, lat + dLat]];
  if (lng - dLng < -180) boxes.push([lng - dLng + 360, lat - dLat, 180, lat + dLat]);
  if (lng + dLng > 180) boxes.push([-180, lat - dLat, lng + dLng - 360, lat + dLat]);
  const want = new Set(kinds);
  const seen = new Set<number>();
  const hits: NearHit[] = [];
  for (const b of boxes) {
    for (const i of s.index.search(b[0], b[1], b[2], b[3])) {
      if (seen.has(i) || i >= s.facilities.length) continue;
      seen.add(i);
      const f = s.facilities[i];
      if (!want.has(f.kind)) continue;
      const d = haversineKm(lat, lng, f.lat, f.lng);
      if (d <= radiusKm) hits.push({ facility: f, distanceKm: d });
    }
  }
  return hits.sort(
    (a, b) => a.distanceKm - b.distanceKm || cmp(a.facility.kind, b.facility.kind) || cmp(a.facility.id, b.facility.id),
  );
}

/** Facilities inside a polygon, ordered by kind then id. */
export function facilitiesInside(s: InfraStore, geometry: Polygon | MultiPolygon): Facility[] {
  const [minX, minY, maxX, maxY] = bboxOf(geometry.coordinates);
  const out: Facility[] = [];
  for (const i of s.index.search(minX, minY, maxX, maxY)) {
    if (i >= s.facilities.length) continue;
    const f = s.facilities[i];
    if (booleanPointInPolygon([f.lng, f.lat], geometry)) out.push(f);
  }
  return out.sort((a, b) => cmp(a.kind, b.kind) || cmp(a.id, b.id));
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
