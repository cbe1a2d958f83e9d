/**
 * The selections of /events/live and /events/{id} over a snapshot, predicate for predicate the SQL of
 * src/store/events-read.ts (whereOf, LAST_CHANGED_SQL, findEvents' key order); /events/nearby's is in
 * nearby.ts. Pure: no store, no clock; `nowUs` is passed in. The scans read the
 * snapshot's typed columns and allocate only for the rows returned.
 */
import { EVENT_TYPES, type EventStatus, type EventType } from '../domain/event.js';
import type { Entry } from './entry.js';
import { entryAt, newestFirst, type Snapshot } from './snapshot.js';
import { phaseAt } from './phase.js';

export interface IndexFilter {
  nowUs: number;
  statuses: EventStatus[];
  eventTypes?: EventType[];
  bbox?: [number, number, number, number];
  sinceUs?: number;
}

/** A page: the matched count, and the positions returned in order with their sort keys. */
export interface LivePage {
  matched: number;
  positions: number[];
  /** The sort key of each position returned (the cursor is made from the last). */
  sortUs: number[];
}

/** LAST_CHANGED_SQL: the later of start and version among those already past; the earlier when neither is. */
export function sortKeyUs(e: Entry, nowUs: number): number {
  const s = e.startedUs <= nowUs ? e.startedUs : -Infinity;
  const u = e.updatedUs <= nowUs ? e.updatedUs : -Infinity;
  const k = Math.max(s, u);
  return k === -Infinity ? Math.min(e.startedUs, e.updatedUs) : k;
}

const STATUS_BIT: Record<EventStatus, number> = { active: 1, monitoring: 2, ended: 4 };

/** The statuses as the bits of a phase's state. */
function statusBits(statuses: EventStatus[]): number {
  let bits = 0;
  for (const st of statuses) bits |= STATUS_BIT[st];
  return bits;
}

/**
 * A request's filter as numbers. whereOf() at position i, as the scans below write it out (a function call
 * per row cost more than the test): known by now and status (the phase's state), since, type, box (inclusive).
 */
interface Mask {
  state: Uint8Array;
  status: number;
  type: number;
  since: number;
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
  /** A box crossing the antimeridian (OGC API - Features). */
  wraps: boolean;
}

export function maskOf(s: Snapshot, f: IndexFilter, box = f.bbox): Mask {
  const [minLng, minLat, maxLng, maxLat] = box ?? [-Infinity, -Infinity, Infinity, Infinity];
  let type = 0;
  for (const t of f.eventTypes ?? []) type |= 1 << EVENT_TYPES.indexOf(t);
  return {
    state: phaseAt(s, f.nowUs).state,
    status: statusBits(f.statuses),
    type,
    since: f.sinceUs ?? -Infinity,
    minLng,
    minLat,
    maxLng,
    maxLat,
    wraps: minLng > maxLng,
  };
}

/**
 * Positions to scan for a box: the tree's hits when the box is small against the live set's extent (ascending,
 * main's order), otherwise undefined: every position (a linear scan of typed columns beats
 * searching and sorting many hits; the live set clusters, so a box of a few degrees can hold a thousand).
 */
function positions(s: Snapshot, box: [number, number, number, number] | undefined): Uint32Array | undefined {
  const t = s.tree;
  if (!box || !t) return undefined;
  const [minLng, minLat, maxLng, maxLat] = box;
  if (minLng > maxLng) return undefined; // crossing the antimeridian: rare, scanned
  const extent = Math.max(1e-9, (t.maxX - t.minX) * (t.maxY - t.minY));
  const w = Math.min(maxLng, t.maxX) - Math.max(minLng, t.minX);
  const h = Math.min(maxLat, t.maxY) - Math.max(minLat, t.minY);
  if (w < 0 || h < 0) return new Uint32Array(0);
  if ((w * h) / extent > TREE_FRACTION) return undefined;
  return new Uint32Array(t.search(minLng, minLat, maxLng, maxLat)).sort();
}

/** Boxes up to this fraction of the live set's extent are searched in the tree; larger ones scanned. */
const TREE_FRACTION = 1 / 1024;

/** listEvents(): matched count and one page, newest first, keyset-paged on (sort key, id). */
export function selectLive(
  s: Snapshot,
  f: IndexFilter,
  page: { limit: number; after?: { sortUs: number; id: string } },
): LivePage {
  if (!f.bbox && !f.eventTypes?.length && f.sinceUs === undefined) return selectByStatus(s, f, page);
  const list = positions(s, f.bbox);
  const n = list ? list.length : s.main.length + s.side.length;
  const out = (scratchMatches = scratchMatches.length >= n ? scratchMatches : new Uint32Array(n * 2));
  const matched = matchAll(s, maskOf(s, f), list, out);
  // The matches ascend: main's positions (in page order) then side's. The page is the first `limit` of main's
  // from the cursor's place on; side's are merged in by their sort key at now.
  const mainLen = s.main.length;
  const lo = pageStart(s, page.after);
  let k = 0;
  while (k < matched && out[k] < lo) k++;
  const picked: number[] = [];
  for (; k < matched && out[k] < mainLen && picked.length < page.limit; k++) picked.push(out[k]);
  const late: number[] = [];
  let j = matched;
  while (j > 0 && out[j - 1] >= mainLen) j--;
  for (; j < matched; j++) late.push(out[j]);
  return pageOf(s, f, page, matched, picked, late);
}

/** Matching positions of selectLive (synchronous, so one array serves every request), grown as needed. */
let scratchMatches = new Uint32Array(0);

/**
 * whereOf() over the positions of `list` (ascending), or over every position: the matching ones into `out`, in
 * order; returns how many. Without a branch per test: the tests are multiplied as 0/1 and every position is
 * written at the end of `out`, kept by moving the end past it when it matched (filters that keep rows at random
 * made the branches mispredict; a quarter faster on the week's live set).
 */
function matchAll(s: Snapshot, m: Mask, list: Uint32Array | undefined, out: Uint32Array): number {
  // Every field in a local: this loop runs over the whole live set per request.
  const { state, status, since, minLng, minLat, maxLng, maxLat, wraps } = m;
  const { updatedUs, lat, lng, type: typeOf } = s.cols;
  const types = m.type === 0 ? ANY_TYPE : m.type;
  let matched = 0;
  // The candidates: the list's rows, or every row (the branch on `list` goes the same way every time).
  for (let k = 0, n = list ? list.length : updatedUs.length; k < n; k++) {
    const i = list ? list[k] : k;
    const x = lng[i];
    const y = lat[i];
    const inLng = wraps ? +(x >= minLng) | +(x <= maxLng) : +(x >= minLng) & +(x <= maxLng);
    out[matched] = i;
    matched +=
      +((state[i] & status) !== 0) &
      ((types >> typeOf[i]) & 1) &
      +(updatedUs[i] >= since) &
      +(y >= minLat) &
      +(y <= maxLat) &
      inLng;
  }
  return matched;
}

/** Every type bit, 15 (a type outside EVENT_TYPES) included: no type filter. */
const ANY_TYPE = 0xffff;

/** The first position of main strictly after the cursor in (key desc, id desc) order (binary search); 0 without one. */
function pageStart(s: Snapshot, after: { sortUs: number; id: string } | undefined): number {
  let lo = 0;
  if (!after) return lo;
  let hi = s.main.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const e = s.main[mid];
    if (newestFirst(e.staticKeyUs, e.id, after.sortUs, after.id) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Filtered by status alone (the plain listing): the count comes from the phase, and the page is read from
 * the cursor's place in main (found by binary search) until it is full.
 */
function selectByStatus(
  s: Snapshot,
  f: IndexFilter,
  page: { limit: number; after?: { sortUs: number; id: string } },
): LivePage {
  const phase = phaseAt(s, f.nowUs);
  const mask = statusBits(f.statuses);
  const matched =
    (mask & 1 ? phase.counts[1] : 0) + (mask & 2 ? phase.counts[2] : 0) + (mask & 4 ? phase.counts[4] : 0);
  const lo = pageStart(s, page.after);
  const picked: number[] = [];
  for (let i = lo; i < s.main.length && picked.length < page.limit; i++) if (phase.state[i] & mask) picked.push(i);
  const late: number[] = [];
  for (let i = s.main.length, n = i + s.side.length; i < n; i++) if (phase.state[i] & mask) late.push(i);
  return pageOf(s, f, page, matched, picked, late);
}

function pageOf(
  s: Snapshot,
  f: IndexFilter,
  page: { limit: number; after?: { sortUs: number; id: string } },
  matched: number,
  picked: number[],
  late: number[],
): LivePage {
  const after = page.after;
  const keyUs = s.cols.keyUs;
  const sortUs = picked.map((i) => keyUs[i]);
  if (late.length === 0) return { matched, positions: picked, sortUs };
  // Announced onsets: their key depends on now; merged into the page by it.
  const hits = picked.map((i, k) => ({ i, sortUs: sortUs[k], id: s.main[i].id }));
  for (const i of late) {
    const e = entryAt(s, i);
    const key = sortKeyUs(e, f.nowUs);
    if (!after || key < after.sortUs || (key === after.sortUs && e.id < after.id))
      hits.push({ i, sortUs: key, id: e.id });
  }
  hits.sort((a, b) => newestFirst(a.sortUs, a.id, b.sortUs, b.id));
  const kept = hits.slice(0, page.limit);
  return { matched, positions: kept.map((h) => h.i), sortUs: kept.map((h) => h.sortUs) };
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
