/**
 * The selections of /events/live, /events/nearby and /events/{id} over a snapshot, predicate for predicate
 * the SQL of src/store/events-read.ts (whereOf, LAST_CHANGED_SQL, nearbyEvents' prefilter box and
 * haversine, findEvents' key order). Pure: no store, no clock; `nowUs` is passed in.
 */
import type { EventStatus, EventType } from '../domain/event.js';
import { EARTH_RADIUS_KM } from '../lib/geo.js';
import { asOf, type AsOf, type Entry } from './entry.js';
import { entryAt, newestFirst, type Snapshot } from './snapshot.js';

export interface IndexFilter {
  nowUs: number;
  statuses: EventStatus[];
  eventTypes?: EventType[];
  bbox?: [number, number, number, number];
  sinceUs?: number;
}

export interface Hit {
  entry: Entry;
  at: AsOf;
  sortUs: number;
  distanceKm?: number;
}

/** LAST_CHANGED_SQL: the later of start and version among those already past; the earlier when neither is. */
export function sortKeyUs(e: Entry, nowUs: number): number {
  const s = e.startedUs <= nowUs ? e.startedUs : -Infinity;
  const u = e.updatedUs <= nowUs ? e.updatedUs : -Infinity;
  const k = Math.max(s, u);
  return k === -Infinity ? Math.min(e.startedUs, e.updatedUs) : k;
}

/** whereOf() without its bbox (the tree and inBox handle that): known by now, status, type, since. */
function passes(e: Entry, f: IndexFilter, types: Set<string> | undefined): AsOf | undefined {
  if (Math.min(e.startedUs, e.updatedUs) > f.nowUs) return undefined;
  if (types && !types.has(e.eventType)) return undefined;
  if (f.sinceUs !== undefined && e.updatedUs < f.sinceUs) return undefined;
  const a = asOf(e, f.nowUs);
  return f.statuses.includes(a.status) ? a : undefined;
}

const inBox = (e: Entry, [minLng, minLat, maxLng, maxLat]: [number, number, number, number]) =>
  e.lat >= minLat && e.lat <= maxLat && (minLng <= maxLng ? e.lng >= minLng && e.lng <= maxLng : e.lng >= minLng || e.lng <= maxLng);

/** Tree positions inside a box (both halves of one crossing the antimeridian), in sort order of main. */
function candidates(s: Snapshot, box: [number, number, number, number]): number[] {
  if (!s.tree) return [];
  const [minLng, minLat, maxLng, maxLat] = box;
  const found = minLng <= maxLng
    ? s.tree.search(minLng, minLat, maxLng, maxLat)
    : [...s.tree.search(minLng, minLat, 180, maxLat), ...s.tree.search(-180, minLat, maxLng, maxLat)];
  return [...new Set(found)].sort((a, b) => a - b);
}

/** listEvents(): matched count and one page, newest first, keyset-paged on (sort key, id). */
export function selectLive(s: Snapshot, f: IndexFilter, page: { limit: number; after?: { sortUs: number; id: string } }): { matched: number; hits: Hit[] } {
  const types = f.eventTypes?.length ? new Set<string>(f.eventTypes) : undefined;
  const after = page.after;
  const isAfter = (k: number, id: string) => !after || k < after.sortUs || (k === after.sortUs && id < after.id);
  let matched = 0;
  const hits: Hit[] = [];
  const late: Hit[] = [];
  const visit = (e: Entry, isMain: boolean) => {
    if (f.bbox && !inBox(e, f.bbox)) return;
    const at = passes(e, f, types);
    if (!at) return;
    matched++;
    const sortUs = isMain ? e.staticKeyUs : sortKeyUs(e, f.nowUs);
    // main is in page order already: the first `limit` after the cursor are the page's candidates.
    if ((!isMain || hits.length < page.limit) && isAfter(sortUs, e.id)) (isMain ? hits : late).push({ entry: e, at, sortUs });
  };
  if (f.bbox) {
    for (const i of candidates(s, f.bbox)) visit(entryAt(s, i), i < s.main.length);
  } else {
    for (const e of s.main) visit(e, true);
    for (const e of s.side) visit(e, false);
  }
  const all = late.length ? [...hits, ...late].sort((a, b) => newestFirst(a.sortUs, a.entry.id, b.sortUs, b.entry.id)) : hits;
  return { matched, hits: all.slice(0, page.limit) };
}

/** The SQL haversine (nearbyEvents' DISTANCE_SQL) term for term: radians(x) = x * (pi / 180). */
function distanceKm(lat: number, lng: number, e: Entry): number {
  const r = Math.PI / 180;
  const a = Math.pow(Math.sin(((e.lat - lat) * r) / 2), 2) + Math.cos(lat * r) * Math.cos(e.lat * r) * Math.pow(Math.sin(((e.lng - lng) * r) / 2), 2);
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** nearbyEvents(): within radiusKm, nearest first (then id), offset-paged, with the SQL's prefilter box. */
export function selectNearby(
  s: Snapshot,
  f: IndexFilter,
  at: { lat: number; lng: number; radiusKm: number },
  page: { limit: number; offset: number },
): { matched: number; hits: Hit[] } {
  const types = f.eventTypes?.length ? new Set<string>(f.eventTypes) : undefined;
  const dLat = at.radiusKm / 111.2;
  const lat0 = at.lat - dLat;
  const lat1 = at.lat + dLat;
  const cosLat = Math.cos((at.lat * Math.PI) / 180);
  const dLng = cosLat > 0.01 ? at.radiusKm / (111.2 * cosLat) : 360;
  const lngBox = at.lng - dLng > -180 && at.lng + dLng < 180;
  const box: [number, number, number, number] = lngBox ? [at.lng - dLng, lat0, at.lng + dLng, lat1] : [-180, lat0, 180, lat1];
  const found: Hit[] = [];
  for (const i of s.tree ? s.tree.search(...box) : []) {
    const e = entryAt(s, i);
    if (e.lat < lat0 || e.lat > lat1 || (lngBox && (e.lng < box[0] || e.lng > box[2]))) continue;
    const d = distanceKm(at.lat, at.lng, e);
    if (!(d <= at.radiusKm)) continue;
    const a = passes(e, f, types);
    if (a) found.push({ entry: e, at: a, sortUs: 0, distanceKm: d });
  }
  found.sort((a, b) => a.distanceKm! - b.distanceKm! || (a.entry.id < b.entry.id ? -1 : a.entry.id > b.entry.id ? 1 : 0));
  return { matched: found.length, hits: found.slice(page.offset, page.offset + page.limit) };
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * findEvents() when it names exactly one event the index holds and can answer for; undefined otherwise
 * (unknown, ambiguous, ended before the build, not yet known at now, or a key whose case folding we leave
 * to DuckDB): the caller then asks the store, which gives the same 404, 409 or event.
 */
export function lookup(s: Snapshot, key: string, nowUs: number): Entry | undefined {
  const known = (e: Entry | undefined) => (e && Math.min(e.startedUs, e.updatedUs) <= nowUs ? e : undefined);
  if (UUID_RE.test(key)) return known(s.byId.get(key.toLowerCase()));
  // Slugs are unique; an ended event's slug or source key sends the question to the store.
  if (s.endedKeys.has(key)) return undefined;
  const bySlug = known(s.bySlug.get(key));
  if (bySlug) return bySlug;
  if (s.bySlug.has(key) || !/^[\x20-\x7e]*$/.test(key)) return undefined;
  const lower = key.toLowerCase();
  if (s.endedKeys.has(lower)) return undefined;
  const matches = (s.bySourceKey.get(lower) ?? []).filter((e) => known(e));
  return matches.length === 1 ? matches[0] : undefined;
}
