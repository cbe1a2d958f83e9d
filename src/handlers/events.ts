/** The four event endpoints: live, show, rings, nearby (docs/contract.md#events), shared by CLI and HTTP. */
import type { Feature } from 'geojson';
import { EVENT_TYPES, type EventStatus } from '../domain/event.js';
import { collection, hrefOf, withCursor } from '../domain/features.js';
import { defaults } from '../config/defaults.js';
import { provenanceOf } from '../domain/provenance.js';
import { ringsOf } from '../store/events-read.js';
import { StoreEventReader } from '../store/event-reader.js';
import type { EventQuery, LiveEventPage } from '../domain/event-reader.js';
import type { Context } from '../context.js';
import { bbox, decodeCursor, encodeCursor, int, isoTime, list, num, str } from './params.js';
import { whyNoneLive } from './live-hint.js';
import { defineHandler, type HandlerResult } from './types.js';
import { eventIdParam, requireEvent } from './event-lookup.js';

const LIVE_STATUSES = ['active', 'monitoring'] as const;
const API = '/api/v1';

interface FilterInput {
  eventTypes?: (typeof EVENT_TYPES)[number][];
  statuses: EventStatus[];
  bbox?: [number, number, number, number];
  since?: string;
  limit: number;
  raw: Record<string, string | undefined>;
}

/** The filters of /events/live; /events/nearby takes them all but the box (`boxed` false: bbox ignored). */
function parseFilters(raw: Record<string, unknown>, boxed = true): FilterInput {
  return {
    eventTypes: list(raw, 'event_type', EVENT_TYPES),
    statuses: list(raw, 'status', LIVE_STATUSES) ?? [...LIVE_STATUSES],
    bbox: boxed ? bbox(raw) : undefined,
    since: isoTime(raw, 'since'),
    limit: int(raw, 'limit', { min: 1, max: defaults.pageLimitMax }, defaults.pageLimit),
    // Echoed into links so that `next` keeps the caller's filters.
    raw: {
      event_type: str(raw, 'event_type'),
      status: str(raw, 'status'),
      bbox: boxed ? str(raw, 'bbox') : undefined,
      since: str(raw, 'since'),
    },
  };
}

/** The filters at an instant, as the event readers take them. */
function queryOf(f: FilterInput, nowUs: number, now: string): EventQuery {
  return { nowUs, now, statuses: f.statuses, eventTypes: f.eventTypes, bbox: f.bbox, since: f.since };
}

/**
 * The store's event reader. The server's live index (ctx.liveIndex, the same interface) answers first when
 * there is one; its answers are the store's, byte for byte (test/live-index.test.ts compares them).
 */
const storeReader = (ctx: Context): StoreEventReader => new StoreEventReader(ctx.db);

/** The clock's ISO text, formatted once per instant (a pinned clock, or a burst of requests within a millisecond, reuses it). */
let isoMs = NaN;
let isoText = '';
function isoOf(clock: Date): string {
  const ms = clock.getTime();
  if (ms !== isoMs) {
    isoText = clock.toISOString();
    isoMs = ms;
  }
  return isoText;
}

interface LiveCursor {
  t: string;
  id: string;
}
const isLiveCursor = (v: unknown): v is LiveCursor =>
  typeof v === 'object' &&
  v !== null &&
  /^-?\d{1,20}$/.test(String((v as LiveCursor).t)) &&
  /^[0-9a-f-]{36}$/i.test(String((v as LiveCursor).id));

const FILTER_OPTIONS = [
  { flags: '--event-type <types>', description: `comma list of ${EVENT_TYPES.join(', ')}` },
  { flags: '--status <statuses>', description: 'active, monitoring or both (default both)' },
  { flags: '--bbox <box>', description: 'minLng,minLat,maxLng,maxLat' },
  { flags: '--since <time>', description: 'only events updated at or after this ISO 8601 time' },
  { flags: '--limit <n>', description: `page size (default ${defaults.pageLimit}, max ${defaults.pageLimitMax})` },
  { flags: '--cursor <cursor>', description: 'the cursor from links.next of the previous page' },
];

/** CLI only: the page as a file for pandas, polars, geopandas and GIS tools (src/columnar/event-file.ts). */
const FILE_OPTIONS = [
  {
    flags: '--format <format>',
    description:
      'json (default: the answer on stdout) | arrow: an Arrow IPC file | geoparquet: a GeoParquet file | gpkg: a GeoPackage | fgb: a FlatGeobuf file; all but json need --out',
  },
  {
    flags: '--out <file>',
    description: 'the file --format arrow, geoparquet, gpkg or fgb writes (replaced whole when written)',
  },
];

export const eventsLive = defineHandler({
  name: 'events.live',
  summary: 'All events with status active or monitoring, newest first',
  http: { method: 'GET', path: '/events/live', access: 'free' },
  cli: {
    command: ['events', 'live'],
    options: [...FILTER_OPTIONS, ...FILE_OPTIONS],
    examples: [
      'catintel events live --event-type earthquake,hurricane --limit 20',
      'catintel events live --bbox -125,32,-114,42 --json',
      'catintel events live --limit 1000 --format geoparquet --out live.parquet',
    ],
    paths: ['out'],
    eventFile: true,
  },
  parse: (raw) => ({ filters: parseFilters(raw), after: decodeCursor(raw, isLiveCursor) }),
  // The body is the collection, or its bytes when the live index answers (the HTTP layer sends bytes as they are).
  // The index's answer is returned unchanged: spreading it into a new object took V8's slow path per request.
  // Only the store's empty first page says why nothing is live (notes), as before the index answered.
  async run(ctx, input): Promise<HandlerResult> {
    const f = input.filters;
    const clock = ctx.clock();
    const now = isoOf(clock);
    const base = hrefOf(`${API}/events/live`, { ...f.raw, limit: f.limit });
    const self = withCursor(base, input.after ? encodeCursor(input.after) : undefined);
    const q = { ...queryOf(f, clock.getTime() * 1000, now), limit: f.limit, after: input.after };
    const indexed = await ctx.liveIndex?.livePage(q);
    if (indexed) return indexed.answer({ now, self, next: nextOf(indexed) });
    const page = await storeReader(ctx).livePage(q);
    const notes = page.matched === 0 && !input.after ? await whyNoneLive(ctx, now) : undefined;
    return { ...page.answer({ now, self, next: nextOf(page) }), notes };

    function nextOf(page: LiveEventPage): string | undefined {
      return page.more ? withCursor(base, encodeCursor(page.lastKey())) : undefined;
    }
  },
});

const idParam = (raw: Record<string, unknown>) => ({ id: eventIdParam(raw) });

export const eventsShow = defineHandler({
  name: 'events.show',
  summary: 'One event with full metadata: details, lifecycle, observations',
  http: { method: 'GET', path: '/events/{id}', access: 'free' },
  cli: {
    command: ['events', 'show'],
    args: ['id'],
    examples: ['catintel events show 5b1e0c1e-...', 'catintel events show m-7-1-ridgecrest-2019-07-06-ab12cd --json'],
  },
  parse: idParam,
  async run(ctx, { id }): Promise<HandlerResult> {
    const clock = ctx.clock();
    const at = { nowUs: clock.getTime() * 1000, now: isoOf(clock) };
    return (await ctx.liveIndex?.show(id, at)) ?? (await storeReader(ctx).show(id, at));
  },
});

export const eventsRings = defineHandler({
  name: 'events.rings',
  summary: 'Consequence ring polygons of an event, outermost last',
  http: { method: 'GET', path: '/events/{id}/rings', access: 'free' },
  cli: {
    command: ['events', 'rings'],
    args: ['id'],
    options: FILE_OPTIONS,
    examples: [
      'catintel events rings <id> --json > rings.geojson',
      'catintel events rings <id> --format geoparquet --out rings.parquet',
      'catintel events rings <id> --format gpkg --out rings.gpkg',
    ],
    paths: ['out'],
    eventFile: true,
  },
  parse: idParam,
  async run(ctx, { id }) {
    const row = await requireEvent(ctx, id);
    const rings = await ringsOf(ctx.db, row.id);
    const features = rings.map((r) => ({
      type: 'Feature' as const,
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
        ...provenanceOf(row),
      },
    }));
    const now = ctx.clock().toISOString();
    return {
      body: collection(features, { matched: features.length, now, self: `${API}/events/${row.id}/rings` }),
      mediaType: 'application/geo+json',
    };
  },
});

interface NearbyCursor {
  o: number;
}
const isNearbyCursor = (v: unknown): v is NearbyCursor =>
  typeof v === 'object' && v !== null && Number.isInteger((v as NearbyCursor).o) && (v as NearbyCursor).o >= 0;

export const eventsNearby = defineHandler({
  name: 'events.nearby',
  summary: 'Live events within radius_km of a point, nearest first, with distance_km',
  http: { method: 'GET', path: '/events/nearby', access: 'free' },
  cli: {
    command: ['events', 'nearby'],
    options: [
      { flags: '--lat <lat>', description: 'latitude, WGS84 degrees' },
      { flags: '--lng <lng>', description: 'longitude, WGS84 degrees' },
      {
        flags: '--radius-km <km>',
        description: `search radius (default ${defaults.nearbyRadiusKm}, max ${defaults.nearbyRadiusKmMax})`,
      },
      ...FILTER_OPTIONS.filter((o) => !o.flags.startsWith('--bbox')),
      ...FILE_OPTIONS,
    ],
    examples: [
      'catintel events nearby --lat 35.77 --lng -117.6 --radius-km 250',
      'catintel events nearby --lat 35.77 --lng -117.6 --format arrow --out nearby.arrow',
    ],
    paths: ['out'],
    eventFile: true,
  },
  parse: (raw) => ({
    lat: num(raw, 'lat', { min: -90, max: 90 }),
    lng: num(raw, 'lng', { min: -180, max: 180 }),
    radiusKm: num(
      raw,
      'radius_km',
      { min: 0, max: defaults.nearbyRadiusKmMax, minExclusive: true },
      defaults.nearbyRadiusKm,
    ),
    filters: parseFilters(raw, false),
    offset: decodeCursor(raw, isNearbyCursor)?.o ?? 0,
  }),
  async run(ctx, input): Promise<HandlerResult> {
    const f = input.filters;
    const clock = ctx.clock();
    const now = isoOf(clock);
    const { event_type, status, since } = f.raw;
    const base = hrefOf(`${API}/events/nearby`, {
      lat: input.lat,
      lng: input.lng,
      radius_km: input.radiusKm,
      event_type,
      status,
      since,
      limit: f.limit,
    });
    const self = withCursor(base, input.offset ? encodeCursor({ o: input.offset }) : undefined);
    const nextHref = (returned: number, matched: number) =>
      input.offset + returned < matched ? withCursor(base, encodeCursor({ o: input.offset + returned })) : undefined;
    const q = {
      ...queryOf(f, clock.getTime() * 1000, now),
      lat: input.lat,
      lng: input.lng,
      radiusKm: input.radiusKm,
      limit: f.limit,
      offset: input.offset,
    };
    const page = (await ctx.liveIndex?.nearbyPage(q)) ?? (await storeReader(ctx).nearbyPage(q));
    return page.answer({ now, self, next: nextHref(page.count, page.matched) });
  },
});
