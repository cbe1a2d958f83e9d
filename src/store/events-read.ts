/**
 * Read queries over events and rings. Status is derived at query time from the lifecycle instants and
 * the bound `now`, so a pinned clock (CATINTEL_NOW) replays exactly. Distance filters use a bbox
 * prefilter on plain lat/lng columns plus haversine in SQL: nothing needs the spatial extension.
 */
import type { DuckDBValue } from '@duckdb/node-api';
import { listValue } from './duckdb.js';
import type { EventStatus, EventType } from '../domain/event.js';
import { EARTH_RADIUS_KM } from '../lib/geo.js';
import type { Store, Tx } from './db.js';
import { eventVersionsSql } from './event-versions.js';

export interface EventRow {
  id: string;
  slug: string;
  title: string;
  event_type: EventType;
  severity: number;
  severity_label: string;
  status: EventStatus;
  started_at: string;
  updated_at: string;
  ingested_at: string;
  monitoring_from: string | null;
  ended_at: string | null;
  lat: number;
  lng: number;
  source: string;
  source_id: string;
  source_url: string;
  confidence_score: number;
  details: string;
  /** True while the event's start (an alert's onset) is still ahead of now. */
  upcoming: boolean;
  /** The time the event last changed at or before now (LAST_CHANGED_SQL), µs since epoch: the sort and paging key. */
  sort_us: bigint;
  distance_km?: number;
}

export interface EventFilter {
  now: string;
  statuses: EventStatus[];
  eventTypes?: EventType[];
  bbox?: [number, number, number, number];
  since?: string;
  /**
   * OGC API - Features `datetime`: events whose time span [started_at, ended_at] meets this interval (either
   * end open). An end stored after now is not known yet at now: such an event is still open-ended.
   */
  during?: { start?: string; end?: string };
}

/**
 * Known by now: a source had published the event at or before now. Its first publication is not kept, so
 * the earlier of its start and its latest version stands in for it: an alert sent yesterday for an onset
 * next week is known (and upcoming), an earthquake of 2014 read at a 1989 clock is not. (The store keeps
 * one version per event; a replay at an earlier instant re-ingests at that clock, which rewinds it.)
 */
const KNOWN_SQL = `least(started_at, updated_at) <= $now::TIMESTAMP`;
const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;
const STATUS_SQL = `CASE WHEN ended_at IS NOT NULL AND ended_at <= $now::TIMESTAMP THEN 'ended'
  WHEN monitoring_from IS NOT NULL AND monitoring_from <= $now::TIMESTAMP THEN 'monitoring' ELSE 'active' END`;
/**
 * The time an event last changed at or before now: the later of its start and the source's latest version,
 * counting only instants already past. An NWS watch sent yesterday for an onset next week last changed
 * yesterday, so a future onset never makes an event look "newer" than what has actually happened. When
 * both lie after now (a replay at an instant earlier than the stored version), the earlier of the two.
 * Observation times need no term: the source's version time (updated_at) is never earlier than them.
 */
const LAST_CHANGED_SQL = `coalesce(greatest(CASE WHEN started_at <= $now::TIMESTAMP THEN started_at END,
  CASE WHEN updated_at <= $now::TIMESTAMP THEN updated_at END), least(started_at, updated_at))`;
const SELECT_EVENT = `SELECT id::VARCHAR AS id, slug, title, event_type, severity, severity_label, ${STATUS_SQL} AS status,
  ${iso('started_at')} AS started_at, ${iso('updated_at')} AS updated_at, ${iso('ingested_at')} AS ingested_at,
  ${iso('monitoring_from')} AS monitoring_from,
  CASE WHEN ended_at <= $now::TIMESTAMP THEN ${iso('ended_at')} END AS ended_at,
  lat, lng, source, source_id, source_url, confidence_score, details::VARCHAR AS details,
  started_at > $now::TIMESTAMP AS upcoming, epoch_us(${LAST_CHANGED_SQL}) AS sort_us`;

/** Haversine distance (km) from ($lat, $lng) to each row, in SQL. */
const DISTANCE_SQL = `2 * ${EARTH_RADIUS_KM} * asin(least(1, sqrt(
  pow(sin(radians(lat - $lat) / 2), 2) + cos(radians($lat)) * cos(radians(lat)) * pow(sin(radians(lng - $lng) / 2), 2))))`;

export function whereOf(f: EventFilter, params: Record<string, DuckDBValue>): string[] {
  params.now = f.now;
  const where = [KNOWN_SQL, `(${STATUS_SQL}) IN (${f.statuses.map((s) => `'${s}'`).join(', ')})`]; // closed set, not user text
  if (f.eventTypes?.length) {
    where.push(`event_type IN (${f.eventTypes.map((_, i) => `$et${i}`).join(', ')})`);
    f.eventTypes.forEach((t, i) => (params[`et${i}`] = t));
  }
  if (f.bbox) {
    const [minLng, minLat, maxLng, maxLat] = f.bbox;
    Object.assign(params, { minLng, minLat, maxLng, maxLat });
    where.push('lat BETWEEN $minLat AND $maxLat');
    // A box whose west edge is east of its east edge crosses the antimeridian (OGC API - Features).
    where.push(minLng <= maxLng ? 'lng BETWEEN $minLng AND $maxLng' : '(lng >= $minLng OR lng <= $maxLng)');
  }
  if (f.since) {
    params.since = f.since;
    where.push('updated_at >= $since::TIMESTAMP');
  }
  if (f.during?.end) {
    params.duringEnd = f.during.end;
    where.push('started_at <= $duringEnd::TIMESTAMP');
  }
  if (f.during?.start) {
    params.duringStart = f.during.start;
    where.push('(ended_at IS NULL OR ended_at > $now::TIMESTAMP OR ended_at >= $duringStart::TIMESTAMP)');
  }
  return where;
}

export interface Page<T> {
  matched: number;
  rows: T[];
}

/**
 * Newest first by the time each event last changed at or before now (LAST_CHANGED_SQL); keyset paging on
 * (that time, id) so pages stay stable while ingest runs. The key depends on now: pages of one listing
 * share it when the clock is pinned; on a running clock an event can move up only when its onset passes.
 */
export async function listEvents(
  db: Store,
  f: EventFilter,
  page: { limit: number; after?: { sortUs: bigint; id: string } },
): Promise<Page<EventRow>> {
  const params: Record<string, DuckDBValue> = {};
  const where = whereOf(f, params);
  const countRow = await db.one<{ n: bigint }>(`SELECT count(*) AS n FROM events WHERE ${where.join(' AND ')}`, params);
  if (page.after) {
    params.afterUs = page.after.sortUs;
    params.afterId = page.after.id;
    where.push(
      `(epoch_us(${LAST_CHANGED_SQL}) < $afterUs OR (epoch_us(${LAST_CHANGED_SQL}) = $afterUs AND id < $afterId::UUID))`,
    );
  }
  params.limit = page.limit;
  // Top-N on the raw columns first, then format only the rows returned.
  // The outer query orders by the selected key (sort_us), not the raw columns its text aliases shadow.
  const rows = await db.all<EventRow>(
    `${SELECT_EVENT} FROM (SELECT * FROM events WHERE ${where.join(' AND ')} ORDER BY ${LAST_CHANGED_SQL} DESC, id DESC LIMIT $limit)
      ORDER BY sort_us DESC, id DESC`,
    params,
  );
  return { matched: Number(countRow?.n ?? 0), rows };
}

/** The one event a key names (see findEvents), or undefined when it names none or several. */
export async function findEvent(db: Store, key: string, now: string): Promise<EventRow | undefined> {
  const rows = await findEvents(db, key, now);
  return rows.length === 1 ? rows[0] : undefined;
}

/**
 * The events a key names (docs/contract.md#events): our UUID, our slug, or the source's own id, case-insensitive (a USGS
 * event answers to every network id it carries, e.g. `nc216859` and `us6000...`; a storm to `AL092022`).
 * A slug or UUID names one event; a source id may name several (the same id in two sources), so every
 * match is returned and the caller decides.
 */
export async function findEvents(db: Store, key: string, now: string): Promise<EventRow[]> {
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key)) {
    return db.all<EventRow>(`${SELECT_EVENT} FROM events WHERE id = $key::UUID AND ${KNOWN_SQL}`, { now, key });
  }
  const bySlug = await db.all<EventRow>(`${SELECT_EVENT} FROM events WHERE slug = $key AND ${KNOWN_SQL}`, { now, key });
  if (bySlug.length > 0) return bySlug;
  return db.all<EventRow>(
    `${SELECT_EVENT} FROM events
      WHERE (lower(source_id) = lower($key) OR (${idsMayHold(key)} AND list_contains(CAST(json_extract(details, '$.ids') AS VARCHAR[]), lower($key))))
        AND ${KNOWN_SQL}
      ORDER BY source, id`,
    { now, key },
  );
}

/**
 * A cheap test that lets only the rows whose details may list `key` among their ids have their JSON parsed
 * (parsing every row's details was most of the time of a lookup by source id). A key of letters, digits and
 * `_.:-` is written as itself inside a JSON string, so a details text without it cannot list it; any other
 * key is looked for in every row's ids, as before.
 */
function idsMayHold(key: string): string {
  return /^[A-Za-z0-9_.:-]+$/.test(key) ? `contains(details::VARCHAR, lower($key))` : 'true';
}

/** Events within radiusKm of a point, nearest first, offset-paged. */
export async function nearbyEvents(
  db: Store,
  f: EventFilter,
  at: { lat: number; lng: number; radiusKm: number },
  page: { limit: number; offset: number },
): Promise<Page<EventRow>> {
  const params: Record<string, DuckDBValue> = { lat: at.lat, lng: at.lng, radius: at.radiusKm };
  const where = whereOf(f, params);
  // Degrees of latitude are ~111.2 km everywhere; longitude degrees shrink with cos(lat). Near the poles
  // or when the box would wrap, the longitude prefilter is dropped and haversine alone decides.
  const dLat = at.radiusKm / 111.2;
  Object.assign(params, { nearLat0: at.lat - dLat, nearLat1: at.lat + dLat });
  where.push('lat BETWEEN $nearLat0 AND $nearLat1');
  const cosLat = Math.cos((at.lat * Math.PI) / 180);
  const dLng = cosLat > 0.01 ? at.radiusKm / (111.2 * cosLat) : 360;
  if (at.lng - dLng > -180 && at.lng + dLng < 180) {
    Object.assign(params, { nearLng0: at.lng - dLng, nearLng1: at.lng + dLng });
    where.push('lng BETWEEN $nearLng0 AND $nearLng1');
  }
  const base = `FROM (SELECT *, ${DISTANCE_SQL} AS distance_km FROM events WHERE ${where.join(' AND ')}) WHERE distance_km <= $radius`;
  const countRow = await db.one<{ n: bigint }>(`SELECT count(*) AS n ${base}`, params);
  params.limit = page.limit;
  params.offset = page.offset;
  const rows = await db.all<EventRow>(
    `${SELECT_EVENT}, distance_km ${base} ORDER BY distance_km, id LIMIT $limit OFFSET $offset`,
    params,
  );
  return { matched: Number(countRow?.n ?? 0), rows };
}

export interface RingRow {
  ring_id: string;
  event_id: string;
  ordinal: number;
  kind: string;
  label: string;
  threshold: number | null;
  unit: string | null;
  radius_km: number | null;
  geojson: string;
}

/** What answers about a ring say of it besides its geometry and event. */
export type RingFields = Pick<RingRow, 'ring_id' | 'ordinal' | 'kind' | 'label' | 'threshold' | 'unit' | 'radius_km'>;

export async function ringsOf(db: Store, eventId: string): Promise<RingRow[]> {
  return db.all<RingRow>(
    `SELECT ring_id::VARCHAR AS ring_id, event_id::VARCHAR AS event_id, ordinal, kind, label, threshold, unit, radius_km, geojson
       FROM rings WHERE event_id = $id::UUID ORDER BY ordinal`,
    { id: eventId },
  );
}

/** How many rings an event has (/events/{id} says so, without their geometries). */
export async function ringCountOf(db: Store, eventId: string): Promise<number> {
  const row = await db.one<{ n: bigint }>('SELECT count(*) AS n FROM rings WHERE event_id = $id::UUID', {
    id: eventId,
  });
  return Number(row?.n ?? 0);
}

export interface ObservationRow {
  kind: string;
  observed_at: string;
  value: number;
  unit: string;
  lat: number | null;
  lng: number | null;
}

export async function observationsOf(db: Store, eventId: string): Promise<ObservationRow[]> {
  return db.all<ObservationRow>(
    `SELECT kind, ${iso('observed_at')} AS observed_at, value, unit, lat, lng FROM observations
      WHERE event_id = $id::UUID ORDER BY observed_at, kind`,
    { id: eventId },
  );
}

/** These events as known at now, in one query (the event stream reports a batch of ended events at once). */
export async function eventsByIds(db: Store | Tx, ids: string[], now: string): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  return db.all<EventRow>(`${SELECT_EVENT} FROM events WHERE id IN (SELECT unnest($ids::UUID[])) AND ${KNOWN_SQL}`, {
    now,
    ids: listValue(ids),
  });
}

/**
 * The events a filter selects, in listEvents' order, each with a version that moves when anything its
 * feature shows at now changes: the event's own version (event-versions.ts), its status and whether it
 * is upcoming.
 */
export async function eventVersionsAt(db: Store | Tx, f: EventFilter): Promise<{ id: string; version: string }[]> {
  const params: Record<string, DuckDBValue> = {};
  const where = whereOf(f, params).join(' AND ');
  return db.all<{ id: string; version: string }>(
    eventVersionsSql(where, {
      also: `(${STATUS_SQL}) || ':' || (started_at > $now::TIMESTAMP)::VARCHAR`,
      orderBy: `${LAST_CHANGED_SQL} DESC, e.id DESC`,
    }),
    params,
  );
}
