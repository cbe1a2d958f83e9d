/** The four event endpoints: live, show, rings, nearby (CONTRACT §5), shared by CLI and HTTP. */
import fs from 'node:fs';
import path from 'node:path';
import type { Feature } from 'geojson';
import { EVENT_TYPES, type EventStatus } from '../domain/event.js';
import { collection, eventFeature, hrefOf } from '../domain/features.js';
import { CatintelError } from '../errors.js';
import { defaults } from '../config/defaults.js';
import { listEvents, nearbyEvents, observationsOf, ringsOf, type EventFilter, type EventRow } from '../store/events-read.js';
import type { Context } from '../context.js';
import { bbox, decodeCursor, encodeCursor, int, isoTime, list, num, str } from './params.js';
import { defaultSeedDir } from './db-seed.js';
import { defineHandler } from './types.js';
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

function parseFilters(raw: Record<string, unknown>): FilterInput {
  const input = {
    eventTypes: list(raw, 'event_type', EVENT_TYPES),
    statuses: list(raw, 'status', LIVE_STATUSES) ?? [...LIVE_STATUSES],
    bbox: bbox(raw),
    since: isoTime(raw, 'since'),
    limit: int(raw, 'limit', { min: 1, max: defaults.pageLimitMax }, defaults.pageLimit),
  };
  // Echoed into links so that `next` keeps the caller's filters.
  const echo = { event_type: str(raw, 'event_type'), status: str(raw, 'status'), bbox: str(raw, 'bbox'), since: str(raw, 'since') };
  return { ...input, raw: echo };
}

function filterOf(ctx: Context, f: FilterInput): EventFilter {
  return { now: ctx.clock().toISOString(), statuses: f.statuses, eventTypes: f.eventTypes, bbox: f.bbox, since: f.since };
}

interface LiveCursor { t: string; id: string }
const isLiveCursor = (v: unknown): v is LiveCursor =>
  typeof v === 'object' && v !== null && /^-?\d{1,20}$/.test(String((v as LiveCursor).t)) && /^[0-9a-f-]{36}$/i.test(String((v as LiveCursor).id));

const FILTER_OPTIONS = [
  { flags: '--event-type <types>', description: `comma list of ${EVENT_TYPES.join(', ')}` },
  { flags: '--status <statuses>', description: 'active, monitoring or both (default both)' },
  { flags: '--bbox <box>', description: 'minLng,minLat,maxLng,maxLat' },
  { flags: '--since <time>', description: 'only events updated at or after this ISO 8601 time' },
  { flags: '--limit <n>', description: `page size (default ${defaults.pageLimit}, max ${defaults.pageLimitMax})` },
  { flags: '--cursor <cursor>', description: 'the cursor from links.next of the previous page' },
];

export const eventsLive = defineHandler({
  name: 'events.live',
  summary: 'All events with status active or monitoring, newest first',
  http: { method: 'GET', path: '/events/live', access: 'free' },
  cli: { command: ['events', 'live'], options: FILTER_OPTIONS, examples: ['catintel events live --event-type earthquake,hurricane --limit 20', 'catintel events live --bbox -125,32,-114,42 --json'] },
  parse: (raw) => ({ ...parseFilters(raw), after: decodeCursor(raw, isLiveCursor) }),
  async run(ctx, input) {
    const now = ctx.clock().toISOString();
    // One row more than asked tells whether a next page exists.
    const page = await listEvents(ctx.db, filterOf(ctx, input), {
      limit: input.limit + 1,
      after: input.after ? { sortUs: BigInt(input.after.t), id: input.after.id } : undefined,
    });
    const rows = page.rows.slice(0, input.limit);
    const last = rows[rows.length - 1];
    const common = { ...input.raw, limit: input.limit };
    const next = page.rows.length > input.limit ? hrefOf(`${API}/events/live`, { ...common, cursor: encodeCursor({ t: String(last.sort_us), id: last.id }) }) : undefined;
    const self = hrefOf(`${API}/events/live`, { ...common, cursor: input.after ? encodeCursor(input.after) : undefined });
    const notes = page.matched === 0 && !input.after ? await whyNoneLive(ctx, now) : undefined;
    return { body: collection(rows.map(eventFeature), { matched: page.matched, now, self, next }), mediaType: 'application/geo+json', notes };
  },
});

/**
 * Why `events live` is empty, for a person: an empty store, or a store whose events are all over at
 * "now" (typically the embedded snapshot, live only at its own instant, read at today's date).
 * Nothing when other live events exist and the filters excluded them.
 */
async function whyNoneLive(ctx: Context, now: string): Promise<string[] | undefined> {
  const live = await listEvents(ctx.db, { now, statuses: [...LIVE_STATUSES] }, { limit: 1 });
  if (live.matched > 0) return undefined;
  const held = await ctx.db.one<{ n: bigint; latest: string | null }>(
    // The latest update, rounded up to the second: at that instant every stored event has been seen.
    `SELECT count(*) AS n, strftime(date_trunc('second', max(updated_at) + INTERVAL 999999 MICROSECOND), '%Y-%m-%dT%H:%M:%SZ') AS latest FROM events`,
  );
  const n = Number(held?.n ?? 0);
  if (n === 0 || !held?.latest) {
    return ['The store holds no events: load the embedded snapshot with `catintel db seed` (offline) or the live feeds with `catintel ingest`.'];
  }
  const instant = snapshotInstantNear(held.latest) ?? held.latest;
  return [
    `The store holds ${n} events, but none is live at ${now.replace(/\.\d{3}Z$/, 'Z')}; its latest update is ${held.latest}.`,
    `See them as of ${instant === held.latest ? 'then' : `the snapshot instant ${instant}`}: catintel --as-of ${instant} events live   (or CATINTEL_NOW=${instant})`,
  ];
}

/** The embedded snapshot's instant (data/seed/as-of.txt) when the store's latest update is from it (within a day before). */
function snapshotInstantNear(latest: string): string | undefined {
  let asOf: string;
  try {
    asOf = fs.readFileSync(path.join(defaultSeedDir(), 'as-of.txt'), 'utf8').trim();
  } catch {
    return undefined;
  }
  const gapMs = Date.parse(asOf) - Date.parse(latest);
  return gapMs >= 0 && gapMs < 86_400_000 ? asOf : undefined;
}

const idParam = (raw: Record<string, unknown>) => ({ id: eventIdParam(raw) });

export const eventsShow = defineHandler({
  name: 'events.show',
  summary: 'One event with full metadata: details, lifecycle, observations',
  http: { method: 'GET', path: '/events/{id}', access: 'free' },
  cli: { command: ['events', 'show'], args: ['id'], examples: ['catintel events show 5b1e0c1e-...', 'catintel events show m-7-1-ridgecrest-2019-07-06-ab12cd --json'] },
  parse: idParam,
  async run(ctx, { id }) {
    const row = await requireEvent(ctx, id);
    const observations = await observationsOf(ctx.db, row.id);
    const rings = await ringsOf(ctx.db, row.id);
    const feature = eventFeature(row);
    const body: Feature = {
      ...feature,
      properties: {
        ...feature.properties,
        source_id: row.source_id,
        monitoring_from: row.monitoring_from,
        details: JSON.parse(row.details) as unknown,
        ring_count: rings.length,
        observations,
        links: [
          { href: `${API}/events/${row.id}`, rel: 'self', type: 'application/geo+json' },
          { href: `${API}/events/${row.id}/rings`, rel: 'rings', type: 'application/geo+json' },
          { href: row.source_url, rel: 'via', type: 'text/html' },
        ],
      },
    };
    return { body, mediaType: 'application/geo+json' };
  },
});

export const eventsRings = defineHandler({
  name: 'events.rings',
  summary: 'Consequence ring polygons of an event, outermost last',
  http: { method: 'GET', path: '/events/{id}/rings', access: 'free' },
  cli: { command: ['events', 'rings'], args: ['id'], examples: ['catintel events rings <id> --json > rings.geojson'] },
  parse: idParam,
  async run(ctx, { id }) {
    const row = await requireEvent(ctx, id);
    const rings = await ringsOf(ctx.db, row.id);
    const features = rings.map((r) => ({
      type: 'Feature' as const,
      id: r.ring_id,
      geometry: JSON.parse(r.geojson) as Feature['geometry'],
      properties: { ring_id: r.ring_id, event_id: r.event_id, kind: r.kind, label: r.label, threshold: r.threshold, unit: r.unit, radius_km: r.radius_km },
    }));
    const now = ctx.clock().toISOString();
    return { body: collection(features, { matched: features.length, now, self: `${API}/events/${row.id}/rings` }), mediaType: 'application/geo+json' };
  },
});

interface NearbyCursor { o: number }
const isNearbyCursor = (v: unknown): v is NearbyCursor => typeof v === 'object' && v !== null && Number.isInteger((v as NearbyCursor).o) && (v as NearbyCursor).o >= 0;

export const eventsNearby = defineHandler({
  name: 'events.nearby',
  summary: 'Live events within radius_km of a point, nearest first, with distance_km',
  http: { method: 'GET', path: '/events/nearby', access: 'free' },
  cli: {
    command: ['events', 'nearby'],
    options: [
      { flags: '--lat <lat>', description: 'latitude, WGS84 degrees' },
      { flags: '--lng <lng>', description: 'longitude, WGS84 degrees' },
      { flags: '--radius-km <km>', description: `search radius (default ${defaults.nearbyRadiusKm}, max ${defaults.nearbyRadiusKmMax})` },
      ...FILTER_OPTIONS.filter((o) => !o.flags.startsWith('--bbox')),
    ],
    examples: ['catintel events nearby --lat 35.77 --lng -117.6 --radius-km 250'],
  },
  parse: (raw) => ({
    lat: num(raw, 'lat', { min: -90, max: 90 }),
    lng: num(raw, 'lng', { min: -180, max: 180 }),
    radiusKm: num(raw, 'radius_km', { min: 0, max: defaults.nearbyRadiusKmMax, minExclusive: true }, defaults.nearbyRadiusKm),
    ...parseFilters({ ...raw, bbox: undefined }),
    offset: decodeCursor(raw, isNearbyCursor)?.o ?? 0,
  }),
  async run(ctx, input) {
    const now = ctx.clock().toISOString();
    const page = await nearbyEvents(ctx.db, filterOf(ctx, input), input, { limit: input.limit, offset: input.offset });
    const common = { lat: input.lat, lng: input.lng, radius_km: input.radiusKm, ...input.raw, limit: input.limit };
    const nextOffset = input.offset + page.rows.length;
    const next = nextOffset < page.matched ? hrefOf(`${API}/events/nearby`, { ...common, cursor: encodeCursor({ o: nextOffset }) }) : undefined;
    const self = hrefOf(`${API}/events/nearby`, { ...common, cursor: input.offset ? encodeCursor({ o: input.offset }) : undefined });
    return { body: collection(page.rows.map(eventFeature), { matched: page.matched, now, self, next }), mediaType: 'application/geo+json' };
  },
});
