/**
 * The event reader's answers over one snapshot (src/domain/event-reader.ts): the pages and the event the
 * endpoints ask for, assembled as bytes (render.ts), with the selections of select.ts and nearby.ts. The
 * index returns what collectionBytes() and showBytes() make unchanged: spreading it into a new object took
 * V8's slow path per request.
 */
import type {
  EventAnswer,
  EventPage,
  EventQuery,
  LiveEventPage,
  LivePageQuery,
  NearbyPageQuery,
} from '../domain/event-reader.js';
import { lookup, selectLive, type IndexFilter } from './select.js';
import { selectNearby } from './nearby.js';
import { collectionBytes, showBytes } from './render.js';
import { entryAt, type Snapshot } from './snapshot.js';

/** The query's filter in the index's terms. */
function filterOf(q: EventQuery): IndexFilter {
  const sinceUs = q.since === undefined ? undefined : Date.parse(q.since) * 1000;
  return { nowUs: q.nowUs, statuses: q.statuses, eventTypes: q.eventTypes, bbox: q.bbox, sinceUs };
}

export function livePageOf(s: Snapshot, q: LivePageQuery): LiveEventPage {
  const filter = filterOf(q);
  const after = q.after ? { sortUs: Number(q.after.t), id: q.after.id.toLowerCase() } : undefined;
  // One event more than asked tells whether a next page exists.
  const page = selectLive(s, filter, { limit: q.limit + 1, after });
  const n = Math.min(page.positions.length, q.limit);
  return {
    matched: page.matched,
    count: n,
    more: page.positions.length > q.limit,
    lastKey: () => ({ t: String(page.sortUs[n - 1]), id: entryAt(s, page.positions[n - 1]).id }),
    answer: (links) =>
      collectionBytes(s, filter.nowUs, page.positions, n, undefined, { matched: page.matched, ...links }),
  };
}

export function nearbyPageOf(s: Snapshot, q: NearbyPageQuery): EventPage {
  const filter = filterOf(q);
  const page = selectNearby(s, filter, q, { limit: q.limit, offset: q.offset });
  const n = page.positions.length;
  return {
    matched: page.matched,
    count: n,
    answer: (links) =>
      collectionBytes(s, filter.nowUs, page.positions, n, page.distancesKm, { matched: page.matched, ...links }),
  };
}

/** The event `key` names, when the snapshot holds it and can answer for it; undefined: ask the store. */
export function showOf(s: Snapshot, key: string, nowUs: number): EventAnswer | undefined {
  const entry = lookup(s, key, nowUs);
  return entry && showBytes(entry, nowUs);
}
