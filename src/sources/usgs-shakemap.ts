/**
 * ShakeMaps for the USGS earthquake records (docs/rings-earthquake-hurricane.md, "From a ShakeMap"):
 *   - offline, `catintel ingest usgs-earthquakes --from FEED --shakemap FILE` attaches one ShakeMap
 *     (cont_mmi.json or grid.xml) to the feed record it belongs to;
 *   - online, for each event the summary feed lists with a `shakemap` product, the event's detail GeoJSON
 *     names the preferred ShakeMap (`properties.products.shakemap[0]`) and its contours
 *     (`contents["download/cont_mmi.json"].url`), which we read.
 * The record's ring input then carries the ShakeMap's areas (and version, so a new version changes the
 * record's content hash and ingest replaces the rings).
 */
import type { SourceRecord } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import { haversineKm } from '../lib/geo.js';
import { fetchFeed, type FetchOptions } from './fetch.js';
import { parseShakeMap, type ShakeMap } from './shakemap.js';

/** A ShakeMap without an id match belongs to a record whose origin is this close in time and place. */
const MATCH_SECONDS = 60;
const MATCH_KM = 50;
/** Online: the largest events first, at most this many ShakeMap look-ups per ingest run (two requests each). */
const MAX_ONLINE_SHAKEMAPS = 10;
/** Online: smaller events' ShakeMaps barely differ from the equation's rings, and there are many of them. */
const MIN_ONLINE_MAGNITUDE = 4.5;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Puts the ShakeMap's areas (and a grid.xml's PGA grid) on the record; the other fields stay as the feed gave them. */
export function withShakeMap(record: SourceRecord, map: ShakeMap, from: string): SourceRecord {
  if (record.ringInput.kind !== 'earthquake') return record;
  const withAreas = { ...record, ringInput: { ...record.ringInput, shakemap: map.areas } };
  return map.pga ? { ...withAreas, shakemapGrid: { grid: map.pga, from } } : withAreas;
}

/**
 * The record a ShakeMap file belongs to: its event id among the record's ids (USGS lists every network's
 * id for one event), else the nearest record within a minute and 50 km of its origin (ShakeMap 3 grids of
 * old events use ids ComCat no longer lists, e.g. 19891018000415 for Loma Prieta, nc216859).
 */
export function matchShakeMap(records: SourceRecord[], map: ShakeMap, name: string): number {
  if (map.eventId) {
    const id = map.eventId;
    const byId = records.findIndex(
      (r) => r.sourceId === id || (Array.isArray(r.details.ids) && (r.details.ids as unknown[]).includes(id)),
    );
    if (byId >= 0) return byId;
  }
  let best = -1;
  let bestKm = Infinity;
  if (map.epicentre) {
    records.forEach((r, i) => {
      const km = haversineKm(r.lat, r.lng, map.epicentre!.lat, map.epicentre!.lng);
      const timely = map.originMs === null || Math.abs(Date.parse(r.startedAt) - map.originMs) <= MATCH_SECONDS * 1000;
      if (timely && km <= MATCH_KM && km < bestKm) [best, bestKm] = [i, km];
    });
  }
  if (best < 0) {
    const where = map.epicentre ? ` at ${map.epicentre.lat}, ${map.epicentre.lng}` : '';
    const when = map.originMs !== null ? ` ${new Date(map.originMs).toISOString()}` : '';
    throw new CatintelError(
      'invalid_input',
      `--shakemap ${name} (event ${map.eventId ?? 'without id'}${when}${where}) matches no earthquake in the feed; pass the feed that holds that event (its USGS id, or an origin within ${MATCH_SECONDS} s and ${MATCH_KM} km)`,
    );
  }
  return best;
}

/**
 * The ShakeMap contours URL, version and publication time (ms, `updateTime`) named by an event's detail
 * GeoJSON, or null when it has none.
 */
export function shakemapProductOf(
  detail: unknown,
): { url: string; version: string | null; updatedMs: number | null } | null {
  const props = isObject(detail) && isObject(detail.properties) ? detail.properties : {};
  const products = isObject(props.products) && Array.isArray(props.products.shakemap) ? props.products.shakemap : [];
  const preferred = products.find(isObject); // ComCat lists the preferred product first
  if (!preferred || !isObject(preferred.contents)) return null;
  const cont = preferred.contents['download/cont_mmi.json'];
  if (!isObject(cont) || typeof cont.url !== 'string') return null;
  const p = isObject(preferred.properties) ? preferred.properties : {};
  const updatedMs = typeof preferred.updateTime === 'number' ? preferred.updateTime : null;
  return { url: cont.url, version: typeof p.version === 'string' ? p.version : null, updatedMs };
}

/**
 * Online: reads the ShakeMaps of the feed's larger events that list one. We follow the feed's detail links only
 * on the feed's own host (USGS serves both), so a feed cannot send ingest to arbitrary servers, and a local
 * replay of a recorded USGS feed stays offline. A ShakeMap that cannot be read, or was published after the
 * clock's "now", leaves the equation's rings.
 */
export async function discoverShakeMaps(
  records: SourceRecord[],
  productTypes: Map<string, string[]>,
  feedUrl: string,
  fetchOptions: Omit<FetchOptions, 'accept'>,
  now: Date,
): Promise<SourceRecord[]> {
  const host = new URL(feedUrl).host;
  const candidates = records
    .map((r, i) => ({ r, i, detail: typeof r.details.detail_url === 'string' ? r.details.detail_url : null }))
    .filter(
      ({ r, detail }) =>
        r.severity >= MIN_ONLINE_MAGNITUDE &&
        (productTypes.get(r.sourceId) ?? []).includes('shakemap') &&
        detail !== null &&
        sameHost(detail, host),
    )
    .sort((a, b) => b.r.severity - a.r.severity)
    .slice(0, MAX_ONLINE_SHAKEMAPS);
  const out = records.slice();
  for (const { r, i, detail } of candidates) {
    try {
      const d = await fetchFeed(detail!, { ...fetchOptions, accept: 'application/geo+json, application/json' });
      if (d.kind !== 'body') continue;
      const product = shakemapProductOf(JSON.parse(d.body));
      if (!product || !sameHost(product.url, host)) continue;
      // As of the clock: a ShakeMap published after "now" did not exist yet (a replay keeps the equation's rings).
      if (product.updatedMs !== null && product.updatedMs > now.getTime()) continue;
      const c = await fetchFeed(product.url, { ...fetchOptions, accept: 'application/json' });
      if (c.kind !== 'body') continue;
      out[i] = withShakeMap(r, parseShakeMap(c.body, product.url, product.version), product.url);
    } catch (err) {
      if (fetchOptions.signal?.aborted) throw err;
      // Unreadable detail or contours: this event keeps the equation's rings; the next run tries again.
    }
  }
  return out;
}

function sameHost(url: string, host: string): boolean {
  try {
    return new URL(url).host === host;
  } catch {
    return false;
  }
}
