/**
 * The selections of /events/live, /events/nearby and /events/{id} over a snapshot, predicate for predicate
 * the SQL of src/store/events-read.ts (whereOf, LAST_CHANGED_SQL, nearbyEvents' prefilter box and
 * haversine, findEvents' key order). Pure: no store, no clock; `nowUs` is passed in. The scans read the
 * snapshot's typed columns and allocate only for the rows returned.
 */
import quickselect from 'quickselect';
import { EVENT_TYPES, type EventStatus, type EventType } from '../domain/event.js';
import { EARTH_RADIUS_KM } from '../lib/geo.js';
import { asOf, type AsOf, type Entry } from './entry.js';
import { entryAt, newestFirst, type Snapshot } from './snapshot.js';
import { phaseAt } from './phase.js';

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

const STATUS_BIT: Record<EventStatus, number> = { active: 1, monitoring: 2, ended: 4 };

/**
 * whereOf() as a test of position i: known by now, type, since, box, status. Built once per request; the
 * returned function allocates nothing.
 */
function predicate(s: Snapshot, f: IndexFilter): (i: number) => boolean {
  const { updatedUs, lat, lng, type } = s.cols;
  const state = phaseAt(s, f.nowUs).state;
  const statusMask = f.statuses.reduce((m, st) => m | STATUS_BIT[st], 0);
  const typeMask = f.eventTypes?.length ? f.eventTypes.reduce((m, t) => m | (1 << EVENT_TYPES.indexOf(t)), 0) : 0;
  const since = f.sinceUs ?? -Infinity;
  const [minLng, minLat, maxLng, maxLat] = f.bbox ?? [-Infinity, -Infinity, Infinity, Infinity];
  const wraps = minLng > maxLng; // a box crossing the antimeridian (OGC API - Features)
  return (i) => {
    if ((state[i] & statusMask) === 0 || updatedUs[i] < since) return false;
    if (typeMask !== 0 && (typeMask & (1 << type[i])) === 0) return false;
    const y = lat[i];
    const x = lng[i];
    return !(y < minLat || y > maxLat || (wraps ? x < minLng && x > maxLng : x < minLng || x > maxLng));
  };
}

/**
 * Positions to scan for a box, ascending (main's order): the tree's hits when the box is small against the
 * live set's extent, otherwise every position (a linear scan of typed columns beats sorting many hits).
 */
function positions(s: Snapshot, box: [number, number, number, number] | undefined): ArrayLike<number> | undefined {
  const t = s.tree;
  if (!box || !t) return undefined;
  const [minLng, minLat, maxLng, maxLat] = box;
  if (minLng > maxLng) return undefined; // crossing the antimeridian: rare, scanned
  const extent = Math.max(1e-9, (t.maxX - t.minX) * (t.maxY - t.minY));
  const w = Math.min(maxLng, t.maxX) - Math.max(minLng, t.minX);
  const h = Math.min(maxLat, t.maxY) - Math.max(minLat, t.minY);
  if (w < 0 || h < 0) return new Uint32Array(0);
  if ((w * h) / extent > 1 / 16) return undefined;
  return Uint32Array.from(t.search(minLng, minLat, maxLng, maxLat)).sort();
}

/** listEvents(): matched count and one page, newest first, keyset-paged on (sort key, id). */
export function selectLive(s: Snapshot, f: IndexFilter, page: { limit: number; after?: { sortUs: number; id: string } }): { matched: number; hits: Hit[] } {
  if (!f.bbox && !f.eventTypes?.length && f.sinceUs === undefined) return selectByStatus(s, f, page);
  const test = predicate(s, f);
  const after = page.after;
  const mainLen = s.main.length;
  const list = positions(s, f.bbox);
  const n = list ? list.length : mainLen + s.side.length;
  let matched = 0;
  const picked: number[] = [];
  const late: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = list ? list[k] : k;
    if (!test(i)) continue;
    matched++;
    if (i >= mainLen) late.push(i);
    else if (picked.length < page.limit) {
      // main is in page order: the first `limit` after the cursor are the page's candidates.
      const e = s.main[i];
      if (!after || e.staticKeyUs < after.sortUs || (e.staticKeyUs === after.sortUs && e.id < after.id)) picked.push(i);
    }
  }
  return pageOf(s, f, page, matched, picked, late);
}

/**
 * Filtered by status alone (the plain listing): the count comes from the phase, and the page is read from
 * the cursor's place in main (found by binary search) until it is full.
 */
function selectByStatus(s: Snapshot, f: IndexFilter, page: { limit: number; after?: { sortUs: number; id: string } }): { matched: number; hits: Hit[] } {
  const phase = phaseAt(s, f.nowUs);
  const mask = f.statuses.reduce((m, st) => m | STATUS_BIT[st], 0);
  const matched = (mask & 1 ? phase.counts[1] : 0) + (mask & 2 ? phase.counts[2] : 0) + (mask & 4 ? phase.counts[4] : 0);
  const after = page.after;
  let lo = 0;
  if (after) {
    // First position strictly after the cursor in (key desc, id desc) order.
    let hi = s.main.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const e = s.main[mid];
      if (newestFirst(e.staticKeyUs, e.id, after.sortUs, after.id) <= 0) lo = mid + 1;
      else hi = mid;
    }
  }
  const picked: number[] = [];
  for (let i = lo; i < s.main.length && picked.length < page.limit; i++) if (phase.state[i] & mask) picked.push(i);
  const late: number[] = [];
  for (let i = s.main.length, n = i + s.side.length; i < n; i++) if (phase.state[i] & mask) late.push(i);
  return pageOf(s, f, page, matched, picked, late);
}

function pageOf(s: Snapshot, f: IndexFilter, page: { limit: number; after?: { sortUs: number; id: string } }, matched: number, picked: number[], late: number[]): { matched: number; hits: Hit[] } {
  const after = page.after;
  const hits: Hit[] = picked.map((i) => ({ entry: s.main[i], at: asOf(s.main[i], f.nowUs), sortUs: s.main[i].staticKeyUs }));
  if (late.length === 0) return { matched, hits };
  // Announced onsets: their key depends on now; merged into the page by it.
  for (const i of late) {
    const e = entryAt(s, i);
    const sortUs = sortKeyUs(e, f.nowUs);
    if (!after || sortUs < after.sortUs || (sortUs === after.sortUs && e.id < after.id)) hits.push({ entry: e, at: asOf(e, f.nowUs), sortUs });
  }
  hits.sort((a, b) => newestFirst(a.sortUs, a.entry.id, b.sortUs, b.entry.id));
  return { matched, hits: hits.slice(0, page.limit) };
}

/** nearbyEvents(): within radiusKm, nearest first (then id), offset-paged, with the SQL's prefilter box. */
export function selectNearby(
  s: Snapshot,
  f: IndexFilter,
  at: { lat: number; lng: number; radiusKm: number },
  page: { limit: number; offset: number },
): { matched: number; hits: Hit[] } {
  const dLat = at.radiusKm / 111.2;
  const cosLat = Math.cos((at.lat * Math.PI) / 180);
  const dLng = cosLat > 0.01 ? at.radiusKm / (111.2 * cosLat) : 360;
  const lngBox = at.lng - dLng > -180 && at.lng + dLng < 180;
  const box: [number, number, number, number] = [lngBox ? at.lng - dLng : -180, at.lat - dLat, lngBox ? at.lng + dLng : 180, at.lat + dLat];
  // The prefilter box is the SQL's BETWEENs; the tree finds its candidates, the predicate checks them exactly.
  const test = predicate(s, { ...f, bbox: box });
  const { lat, lng, cosLat: cosE } = s.cols;
  // The SQL haversine (DISTANCE_SQL) term for term, radians(x) = x * (pi / 180): d = 2 R asin(min(1, sqrt(a))).
  // d grows with a, so a decides "within the radius" (exactly near the edge) and the order, and d itself
  // is computed only for the rows returned. libm and V8 may round sin/asin apart in the last bit
  // (docs/performance.md).
  const r = Math.PI / 180;
  const cosQ = Math.cos(at.lat * r);
  const half = at.radiusKm / (2 * EARTH_RADIUS_KM);
  const aEdge = half >= Math.PI / 2 ? Infinity : Math.sin(half) ** 2;
  const dOf = (a: number) => 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(a)));
  const candidates = s.tree ? s.tree.search(...box) : [];
  const pos = new Uint32Array(candidates.length);
  const hav = new Float64Array(candidates.length);
  let n = 0;
  for (const i of candidates) {
    if (!test(i)) continue;
    const sLat = Math.sin(((lat[i] - at.lat) * r) / 2);
    const sLng = Math.sin(((lng[i] - at.lng) * r) / 2);
    const a = sLat * sLat + cosQ * cosE[i] * (sLng * sLng);
    if (a > aEdge * (1 + 1e-9) || (a > aEdge * (1 - 1e-9) && !(dOf(a) <= at.radiusKm))) continue;
    pos[n] = i;
    hav[n++] = a;
  }
  // Only the first offset + limit in order are needed: the a of the last of them (quickselect: linear,
  // where sorting every candidate of a 1,000 km radius was the costliest step of a request), then exact
  // distances and (distance, id) order for the rows at or within it (a hair wider, so that rows whose
  // distances round equal are all there to be ordered by id).
  const want = Math.min(n, page.offset + page.limit);
  if (want === 0) return { matched: n, hits: [] };
  let cut = Infinity;
  if (want < n) {
    const order = hav.slice(0, n); // a copy: hav stays aligned with pos
    quickselect(order as unknown as number[], want - 1);
    cut = order[want - 1] * (1 + 1e-12) + 1e-300;
  }
  const near: { i: number; d: number; id: string }[] = [];
  for (let k = 0; k < n; k++) if (hav[k] <= cut) near.push({ i: pos[k], d: dOf(hav[k]), id: entryAt(s, pos[k]).id });
  near.sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const hits = near.slice(page.offset, page.offset + page.limit).map(({ i, d }) => {
    const e = entryAt(s, i);
    return { entry: e, at: asOf(e, f.nowUs), sortUs: 0, distanceKm: d };
  });
  return { matched: n, hits };
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
