/**
 * Replay of the earthquake catalogs (the NSHM catalogs the baseline uses) against one magnitude trigger,
 * magnitude-in-a-circle (docs/triggers-backtest.md#the-rule-the-same-as-live-evaluation): every catalog event whose epicentre lies within
 * radius_km of the site, with its moment magnitude. Epicentres sit in a flatbush index.
 */
import Flatbush from 'flatbush';
import { EARTH_RADIUS_KM } from '../../../lib/geo.js';
import { flatKm } from '../../domain/site-wind.js';

export interface CatalogQuake {
  id: string; // catalog name and origin time, e.g. wus:1906-04-18T13:12Z
  catalog: 'ceus' | 'wus';
  magnitude: number; // Mw
  lat: number;
  lng: number;
  depthKm: number;
  year: number;
  time: string; // ISO 8601 UTC, to the second
}

export interface QuakeIndex {
  quakes: CatalogQuake[];
  tree: Flatbush;
}

export interface QuakeHit {
  quake: CatalogQuake;
  distanceKm: number;
}

const KM_PER_DEG = (Math.PI / 180) * EARTH_RADIUS_KM;

export function buildQuakeIndex(quakes: CatalogQuake[]): QuakeIndex {
  const tree = new Flatbush(Math.max(1, quakes.length));
  for (const q of quakes) tree.add(q.lng, q.lat, q.lng, q.lat);
  if (quakes.length === 0) tree.add(1e6, 1e6, 1e6, 1e6);
  tree.finish();
  return { quakes, tree };
}

/** Events within the circle at or above minMagnitude, in catalog order. */
export function replayQuakes(
  index: QuakeIndex,
  site: { lat: number; lng: number; radiusKm: number },
  minMagnitude: number,
  fromYear: number,
  toYear: number,
): QuakeHit[] {
  const dLat = site.radiusKm / KM_PER_DEG;
  const dLng = dLat / Math.max(0.05, Math.cos((site.lat * Math.PI) / 180));
  const out: QuakeHit[] = [];
  for (const k of index.tree
    .search(site.lng - dLng, site.lat - dLat, site.lng + dLng, site.lat + dLat)
    .sort((x, y) => x - y)) {
    const q = index.quakes[k];
    if (q.magnitude < minMagnitude || q.year < fromYear || q.year > toYear) continue;
    const d = flatKm(site.lat, site.lng, q.lat, q.lng);
    if (d <= site.radiusKm) out.push({ quake: q, distanceKm: d });
  }
  return out;
}

/** Which catalog covers a site: the one holding the nearest event (the CEUS and WUS regions abut). */
export function catalogAt(index: QuakeIndex, lat: number, lng: number): 'ceus' | 'wus' | null {
  let best: CatalogQuake | null = null;
  let bestKm = Infinity;
  for (let r = 100; r <= 3200 && !best; r *= 2) {
    const dLat = r / KM_PER_DEG;
    const dLng = dLat / Math.max(0.05, Math.cos((lat * Math.PI) / 180));
    for (const k of index.tree.search(lng - dLng, lat - dLat, lng + dLng, lat + dLat)) {
      const q = index.quakes[k];
      const d = flatKm(lat, lng, q.lat, q.lng);
      if (d < bestKm) {
        bestKm = d;
        best = q;
      }
    }
  }
  return best?.catalog ?? null;
}
