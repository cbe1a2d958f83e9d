/**
 * ShakeMaps for the USGS earthquake records (docs/rings-earthquake-hurricane.md, "From a ShakeMap"):
 *   - offline, `catintel ingest usgs-earthquakes --from FEED --shakemap FILE` attaches one ShakeMap
 *     (cont_mmi.json or grid.xml) to the feed record it belongs to;
 *   - online, for each event the summary feed lists with a `shakemap` product, the event's detail GeoJSON
 *     names the preferred ShakeMap (`properties.products.shakemap[0]`) and its contours
 *     (`contents["download/cont_mmi.json"].url`), which we read, and its grid (`contents["download/grid.xml"]`),
 *     which we read only when no grid of that product is stored for the event yet (a grid.xml is megabytes:
 *     a repeated ingest cycle must not download it again).
 * The record's ring input then carries the ShakeMap's areas (and version, so a new version changes the
 * record's content hash and ingest replaces the rings); a grid read rides along for the live loss
 * (src/store/shakemap-grids.ts).
 */
import type { SourceRecord } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import { haversineKm } from '../lib/geo.js';
import { fetchFeed, type FetchOptions } from './fetch.js';
import { parseShakeMap, parseShakeMapPga, type ShakeMap } from './shakemap.js';

/** A ShakeMap without an id match belongs to a record whose origin is this close in time and place. */
const MATCH_SECONDS = 60;
const MATCH_KM = 50;
/** Online: the largest events first, at most this many ShakeMap look-ups per ingest run (two or three requests each). */
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

/** The preferred ShakeMap product of an event's detail GeoJSON, as far as ingest reads it. */
export interface ShakeMapProduct {
  /** Its MMI contours (`download/cont_mmi.json`). */
  url: string;
  /** Its grid (`download/grid.xml`), or null when the product lists none. */
  gridUrl: string | null;
  version: string | null;
  /** Its publication time (ms, `updateTime`). */
  updatedMs: number | null;
}

/** The ShakeMap product named by an event's detail GeoJSON, or null when it has no contours. */
export function shakemapProductOf(detail: unknown): ShakeMapProduct | null {
  const props = isObject(detail) && isObject(detail.properties) ? detail.properties : {};
  const products = isObject(props.products) && Array.isArray(props.products.shakemap) ? props.products.shakemap : [];
  const preferred = products.find(isObject); // ComCat lists the preferred product first
  if (!preferred || !isObject(preferred.contents)) return null;
  const cont = preferred.contents['download/cont_mmi.json'];
  if (!isObject(cont) || typeof cont.url !== 'string') return null;
  const p = isObject(preferred.properties) ? preferred.properties : {};
  const updatedMs = typeof preferred.updateTime === 'number' ? preferred.updateTime : null;
  // ShakeMap 3.5 and 4 products list the plain grid.xml (4 adds it zipped beside it); only the plain one is read.
  const grid = preferred.contents['download/grid.xml'];
  const gridUrl = isObject(grid) && typeof grid.url === 'string' ? grid.url : null;
  return { url: cont.url, gridUrl, version: typeof p.version === 'string' ? p.version : null, updatedMs };
}

/** What identifies the grid last stored for an event: its ShakeMap version and the URL (or file) it came from. */
export interface StoredGridKey {
  version: string | null;
  from: string;
}

/**
 * Whether the product's grid is already stored: same URL (ComCat's content URLs carry the product's
 * `updateTime`, so a re-release has a new one) and same ShakeMap version.
 */
export function gridAlreadyStored(product: ShakeMapProduct, stored: StoredGridKey | null): boolean {
  return stored !== null && stored.from === product.gridUrl && stored.version === product.version;
}

/** Online ShakeMap reading: what the store already holds, so unchanged grids are not fetched again. */
export interface ShakeMapLookup {
  /** The grid last stored for the feed event `sourceId` (by the ingest clock), or null. */
  storedGrid?: (sourceId: string) => Promise<StoredGridKey | null>;
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
  lookup: ShakeMapLookup = {},
): Promise<{ records: SourceRecord[]; notes: string[] }> {
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
  const notes: string[] = [];
  for (const { r, i, detail } of candidates) {
    let product: ShakeMapProduct | null;
    try {
      const d = await fetchFeed(detail!, { ...fetchOptions, accept: 'application/geo+json, application/json' });
      if (d.kind !== 'body') continue;
      product = shakemapProductOf(JSON.parse(d.body));
      if (!product || !sameHost(product.url, host)) continue;
      // As of the clock: a ShakeMap published after "now" did not exist yet (a replay keeps the equation's rings).
      if (product.updatedMs !== null && product.updatedMs > now.getTime()) continue;
      const c = await fetchFeed(product.url, { ...fetchOptions, accept: 'application/json' });
      if (c.kind !== 'body') continue;
      out[i] = withShakeMap(r, parseShakeMap(c.body, product.url, product.version), product.url);
    } catch (err) {
      if (fetchOptions.signal?.aborted) throw err;
      // Unreadable detail or contours: this event keeps the equation's rings; the next run tries again.
      continue;
    }
    const gridUrl = product?.gridUrl;
    if (!product || !gridUrl || !sameHost(gridUrl, host)) continue;
    try {
      if (gridAlreadyStored(product, (await lookup.storedGrid?.(r.sourceId)) ?? null)) continue;
      const g = await fetchFeed(gridUrl, { ...fetchOptions, accept: 'application/xml, text/xml' });
      if (g.kind !== 'body') continue;
      const grid = parseShakeMapPga(g.body, gridUrl);
      // Named by the product's version, as its contours are (ComCat's version is the one the rings show).
      out[i] = {
        ...out[i],
        shakemapGrid: { grid: { ...grid, version: product.version ?? grid.version }, from: gridUrl },
      };
    } catch (err) {
      if (fetchOptions.signal?.aborted) throw err;
      // The contours still count; the loss stays on the grid stored before (or the model's ground motion).
      const why = String((err as Error)?.message ?? err)
        .split('\n')[0]
        .slice(0, 300);
      notes.push(
        `ShakeMap grid.xml of ${r.sourceId} (version ${product.version ?? 'unknown'}) not read from ${gridUrl}: ${why}; its live loss keeps the grid stored before, or the model's ground motion, until a later run reads it`,
      );
    }
  }
  return { records: out, notes };
}

function sameHost(url: string, host: string): boolean {
  try {
    return new URL(url).host === host;
  } catch {
    return false;
  }
}
