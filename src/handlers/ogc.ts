/**
 * OGC API - Features Part 1 (OGC 17-069r4) beside the contract paths, so GIS clients (QGIS, GDAL, ArcGIS)
 * open the events directly: /conformance, /collections, /collections/{collectionId}, its /items and
 * /items/{featureId}. Two collections: `events` (the features of /events/live, from the same store query
 * and feature builder) and `rings` (one feature per consequence ring of those events). HTTP only: the CLI
 * has `events live` and `events rings`.
 */
import type { Feature } from 'geojson';
import type { Context } from '../context.js';
import { EVENT_TYPES, type EventStatus } from '../domain/event.js';
import { eventFeature, hrefOf, withCursor } from '../domain/features.js';
import {
  COLLECTION_IDS,
  OGC_API,
  collectionDoc,
  collectionsDoc,
  conformanceDoc,
  isCollectionId,
  itemLinks,
  itemsLinks,
  type CollectionId,
} from '../domain/ogc.js';
import { CatintelError } from '../errors.js';
import { findEvent, listEvents, type EventFilter } from '../store/events-read.js';
import { provenanceOf } from '../domain/provenance.js';
import { findRing, listRings, liveExtents, type LiveRingRow } from '../store/ogc-read.js';
import { bbox, decodeCursor, encodeCursor, list, required, str } from './params.js';
import { ogcDatetime, ogcLimit, type Interval } from './ogc-params.js';
import { defineHandler } from './types.js';

const LIVE: EventStatus[] = ['active', 'monitoring'];

function collectionOf(raw: Record<string, unknown>): CollectionId {
  const id = required(raw, 'collectionId');
  if (!isCollectionId(id)) {
    throw new CatintelError(
      'not_found',
      `no collection "${id.slice(0, 64)}"; the collections are ${COLLECTION_IDS.join(', ')} (see ${OGC_API}/collections)`,
    );
  }
  return id;
}

export const ogcConformance = defineHandler({
  name: 'ogc.conformance',
  summary: 'The OGC API - Features conformance classes this service implements',
  http: { method: 'GET', path: '/conformance', access: 'free' },
  parse: () => ({}),
  run: async () => ({ body: conformanceDoc() }),
});

async function describe(ctx: Context, ids: readonly CollectionId[]) {
  const extents = await liveExtents(ctx.db, { now: ctx.clock().toISOString(), statuses: LIVE });
  return ids.map((id) => collectionDoc(id, extents[id]));
}

export const ogcCollections = defineHandler({
  name: 'ogc.collections',
  summary: 'The feature collections: live events and their rings, with their extents',
  http: { method: 'GET', path: '/collections', access: 'free' },
  parse: () => ({}),
  run: async (ctx) => ({ body: collectionsDoc(await describe(ctx, COLLECTION_IDS)) }),
});

export const ogcCollection = defineHandler({
  name: 'ogc.collection',
  summary: 'One feature collection: its description, extent and links',
  http: { method: 'GET', path: '/collections/{collectionId}', access: 'free' },
  parse: (raw) => ({ collection: collectionOf(raw) }),
  run: async (ctx, { collection }) => ({ body: (await describe(ctx, [collection]))[0] }),
});

interface ItemsInput {
  collection: CollectionId;
  limit: number;
  bbox?: [number, number, number, number];
  during?: Interval;
  eventTypes?: (typeof EVENT_TYPES)[number][];
  cursor?: EventsCursor | RingsCursor;
  /** The caller's filters as given, echoed into the links so that `next` keeps them. */
  echo: Record<string, string | undefined>;
}

interface EventsCursor {
  t: string;
  id: string;
}
interface RingsCursor {
  o: number;
}
const isEventsCursor = (v: unknown): v is EventsCursor =>
  typeof v === 'object' &&
  v !== null &&
  /^-?\d{1,20}$/.test(String((v as EventsCursor).t)) &&
  /^[0-9a-f-]{36}$/i.test(String((v as EventsCursor).id));
const isRingsCursor = (v: unknown): v is RingsCursor =>
  typeof v === 'object' && v !== null && Number.isInteger((v as RingsCursor).o) && (v as RingsCursor).o >= 0;

export const ogcItems = defineHandler({
  name: 'ogc.items',
  summary: 'The features of a collection: bbox, datetime, event_type, limit and next links',
  http: { method: 'GET', path: '/collections/{collectionId}/items', access: 'free' },
  parse: (raw): ItemsInput => {
    const collection = collectionOf(raw);
    return {
      collection,
      limit: ogcLimit(raw),
      bbox: bbox(raw),
      during: ogcDatetime(raw),
      eventTypes: list(raw, 'event_type', EVENT_TYPES),
      cursor: collection === 'events' ? decodeCursor(raw, isEventsCursor) : decodeCursor(raw, isRingsCursor),
      echo: { bbox: str(raw, 'bbox'), datetime: str(raw, 'datetime'), event_type: str(raw, 'event_type') },
    };
  },
  async run(ctx, input) {
    const now = ctx.clock().toISOString();
    const filter: EventFilter = {
      now,
      statuses: LIVE,
      eventTypes: input.eventTypes,
      bbox: input.bbox,
      during: input.during,
    };
    const page =
      input.collection === 'events' ? await eventsPage(ctx, filter, input) : await ringsPage(ctx, filter, input);
    const path = `${OGC_API}/collections/${input.collection}/items`;
    const base = hrefOf(path, { ...input.echo, limit: input.limit });
    const self = withCursor(base, input.cursor ? encodeCursor(input.cursor) : undefined);
    const next = page.next ? withCursor(base, encodeCursor(page.next)) : undefined;
    const body = {
      type: 'FeatureCollection' as const,
      numberMatched: page.matched,
      numberReturned: page.features.length,
      timeStamp: now,
      links: itemsLinks(input.collection, self, next),
      features: page.features,
    };
    return { body, mediaType: 'application/geo+json' };
  },
});

interface ItemsPage {
  matched: number;
  features: Feature[];
  next?: EventsCursor | RingsCursor;
}

/** The /events/live query and features: keyset pages, newest first. */
async function eventsPage(ctx: Context, filter: EventFilter, input: ItemsInput): Promise<ItemsPage> {
  const after = input.cursor as EventsCursor | undefined;
  const page = await listEvents(ctx.db, filter, {
    limit: input.limit + 1,
    after: after ? { sortUs: BigInt(after.t), id: after.id } : undefined,
  });
  const rows = page.rows.slice(0, input.limit);
  const last = rows[rows.length - 1];
  const next = page.rows.length > input.limit ? { t: String(last.sort_us), id: last.id } : undefined;
  return { matched: page.matched, features: rows.map(eventFeature), next };
}

async function ringsPage(ctx: Context, filter: EventFilter, input: ItemsInput): Promise<ItemsPage> {
  const offset = (input.cursor as RingsCursor | undefined)?.o ?? 0;
  const page = await listRings(ctx.db, filter, { limit: input.limit, offset });
  const end = offset + page.rows.length;
  return {
    matched: page.matched,
    features: page.rows.map(ringFeature),
    next: end < page.matched ? { o: end } : undefined,
  };
}

/** A ring as in /events/{id}/rings, plus its event's type and title (what a map styles and labels by). */
function ringFeature(r: LiveRingRow): Feature {
  return {
    type: 'Feature',
    id: r.ring_id,
    geometry: JSON.parse(r.geojson) as Feature['geometry'],
    properties: {
      ring_id: r.ring_id,
      event_id: r.event_id,
      kind: r.kind,
      label: r.label,
      threshold: r.threshold,
      unit: r.unit,
      radius_km: r.radius_km,
      event_type: r.event_type,
      event_title: r.event_title,
      ...provenanceOf(r),
    },
  };
}

export const ogcItem = defineHandler({
  name: 'ogc.item',
  summary: 'One feature of a collection: a live event, or a ring of one',
  http: { method: 'GET', path: '/collections/{collectionId}/items/{featureId}', access: 'free' },
  parse: (raw) => ({ collection: collectionOf(raw), featureId: required(raw, 'featureId') }),
  async run(ctx, { collection, featureId }) {
    const now = ctx.clock().toISOString();
    let feature: Feature | undefined;
    if (collection === 'events') {
      const row = await findEvent(ctx.db, featureId, now);
      if (row && LIVE.includes(row.status)) feature = eventFeature(row);
    } else {
      const row = await findRing(ctx.db, { now, statuses: LIVE }, featureId);
      if (row) feature = ringFeature(row);
    }
    if (!feature) {
      throw new CatintelError(
        'not_found',
        `no feature "${featureId.slice(0, 80)}" in the collection ${collection} (live ${collection} at ${now}); list them at ${OGC_API}/collections/${collection}/items`,
      );
    }
    return {
      body: { ...feature, links: itemLinks(collection, String(feature.id)) },
      mediaType: 'application/geo+json',
    };
  },
});

export const OGC_HANDLERS = [ogcConformance, ogcCollections, ogcCollection, ogcItems, ogcItem];
