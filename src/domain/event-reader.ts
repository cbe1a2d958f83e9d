/**
 * How the event endpoints (/events/live, /events/nearby, /events/{id}) read events: the store implements it
 * (src/store/event-reader.ts, SQL over DuckDB) and so does the server's in-memory live index
 * (src/live-index/live-index.ts). The handlers (src/handlers/events.ts) see only this, and the context names
 * only this, so neither reaches into the index's snapshots nor the store's rows. Both give the same bytes for
 * the same question (test/live-index.test.ts compares them).
 */
import type { EventColumns } from './event-columns.js';
import type { EventStatus, EventType } from './event.js';

/** A reader that answers at once, or later. */
type Answered<T> = T | Promise<T>;

/** An instant, as microseconds since the epoch and as the ISO text the bodies show. */
export interface ReadInstant {
  nowUs: number;
  now: string;
}

/** The filters of /events/live and /events/nearby, at an instant. */
export interface EventQuery extends ReadInstant {
  statuses: EventStatus[];
  eventTypes?: EventType[];
  bbox?: [number, number, number, number];
  /** Only events updated at or after this ISO 8601 time. */
  since?: string;
}

/** Where a page of /events/live starts after: the sort key (microseconds, as text) and id of the last event shown. */
interface LiveKey {
  t: string;
  id: string;
}

export interface LivePageQuery extends EventQuery {
  limit: number;
  after?: LiveKey;
}

export interface NearbyPageQuery extends EventQuery {
  lat: number;
  lng: number;
  radiusKm: number;
  limit: number;
  offset: number;
}

/** A body a reader made: an OGC feature or collection, as an object or as its bytes (with what is known of them). */
export interface EventAnswer {
  body: unknown;
  mediaType: 'application/geo+json';
  /** The body's strong ETag, when known without hashing its bytes. */
  etag?: string;
  /** The sources of the events in the body. */
  sources?: string[];
  /** A collection's events as columns, when the reader has them without the body (the live index): its Arrow form is made from them. */
  columns?: () => EventColumns;
}

/** The links an OGC collection carries, and the instant it shows (its numberMatched is the page's own). */
interface PageLinks {
  now: string;
  self: string;
  next?: string;
}

/** One page of events: how many match, how many it holds, and its body once its links are known. */
export interface EventPage {
  matched: number;
  count: number;
  answer(links: PageLinks): EventAnswer;
}

/** A page of /events/live, asked for one event more than shown: `more` tells whether a next page exists. */
export interface LiveEventPage extends EventPage {
  more: boolean;
  /** The key of the last event shown, for the next page's cursor. */
  lastKey(): LiveKey;
}

export interface EventReader {
  /** One page of live events, newest first; undefined: this reader cannot answer at q.nowUs (ask the store). */
  livePage(q: LivePageQuery): Answered<LiveEventPage | undefined>;
  /** One page of live events within q.radiusKm, nearest first; undefined: ask the store. */
  nearbyPage(q: NearbyPageQuery): Answered<EventPage | undefined>;
  /** The event a key (UUID, slug or source id) names, with its details; undefined: ask the store. */
  show(key: string, at: ReadInstant): Answered<EventAnswer | undefined>;
}
