/**
 * The event reader (src/domain/event-reader.ts) over the store: the SQL of events-read.ts, the bodies made
 * with src/domain/features.ts. It always answers; the live index answers the same questions from memory
 * when the server holds one, and this is where a handler turns when it does not.
 */
import type {
  EventAnswer,
  EventPage,
  EventQuery,
  EventReader,
  LiveEventPage,
  LivePageQuery,
  NearbyPageQuery,
  ReadInstant,
} from '../domain/event-reader.js';
import { collection, eventDetailFeature, eventFeature } from '../domain/features.js';
import { CatintelError } from '../errors.js';
import type { Store } from './db.js';
import {
  findEvents,
  listEvents,
  nearbyEvents,
  observationsOf,
  ringCountOf,
  type EventFilter,
  type EventRow,
} from './events-read.js';

const GEOJSON = 'application/geo+json';

function filterOf(q: EventQuery): EventFilter {
  return { now: q.now, statuses: q.statuses, eventTypes: q.eventTypes, bbox: q.bbox, since: q.since };
}

/**
 * The one event `key` (our UUID, the slug, or the source's own id) names at `now` (docs/contract.md#events):
 * unknown is 404; a source id that two sources share is 409 naming the candidates, so the caller can pick
 * one by its UUID or slug.
 */
export async function oneEvent(db: Store, key: string, now: string): Promise<EventRow> {
  const rows = await findEvents(db, key, now);
  if (rows.length === 1) return rows[0];
  if (rows.length === 0) {
    throw new CatintelError(
      'not_found',
      `no event with id, slug or source id "${key}"; list events with /events/live (CLI: catintel events live)`,
    );
  }
  const candidates = rows.map((r) => `${r.slug} (${r.source} ${r.source_id}: ${r.title})`);
  throw new CatintelError(
    'conflict',
    `"${key}" names ${rows.length} events; ask for one by its slug or UUID: ${candidates.join('; ')}`,
    {
      errors: rows.map((r) => ({ field: 'id', message: `${r.id} ${r.slug} (${r.source})` })),
    },
  );
}

export class StoreEventReader implements EventReader {
  constructor(private readonly db: Store) {}

  async livePage(q: LivePageQuery): Promise<LiveEventPage> {
    // One row more than asked tells whether a next page exists.
    const page = await listEvents(this.db, filterOf(q), {
      limit: q.limit + 1,
      after: q.after ? { sortUs: BigInt(q.after.t), id: q.after.id } : undefined,
    });
    const rows = page.rows.slice(0, q.limit);
    const last = rows[rows.length - 1];
    return {
      matched: page.matched,
      count: rows.length,
      more: page.rows.length > q.limit,
      lastKey: () => ({ t: String(last.sort_us), id: last.id }),
      answer: (links) => ({
        body: collection(rows.map(eventFeature), { matched: page.matched, ...links }),
        mediaType: GEOJSON,
      }),
    };
  }

  async nearbyPage(q: NearbyPageQuery): Promise<EventPage> {
    const page = await nearbyEvents(this.db, filterOf(q), q, { limit: q.limit, offset: q.offset });
    return {
      matched: page.matched,
      count: page.rows.length,
      answer: (links) => ({
        body: collection(page.rows.map(eventFeature), { matched: page.matched, ...links }),
        mediaType: GEOJSON,
      }),
    };
  }

  async show(key: string, at: ReadInstant): Promise<EventAnswer> {
    const row = await oneEvent(this.db, key, at.now);
    const observations = await observationsOf(this.db, row.id);
    const ringCount = await ringCountOf(this.db, row.id);
    return { body: eventDetailFeature(eventFeature(row), row, ringCount, observations), mediaType: GEOJSON };
  }
}
