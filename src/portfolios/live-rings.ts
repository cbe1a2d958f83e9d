/**
 * The rings of the live events (active and monitoring at now, as /events/live lists them: the store's own
 * listEvents), with the fields exposure answers carry: ring identity, kind, label, threshold, and the
 * event's provenance. Optionally only rings whose bbox meets a box (a portfolio's extent).
 */
import type { DuckDBValue } from '@duckdb/node-api';
import { listValue } from '../store/duckdb.js';
import type { EventType } from '../domain/event.js';
import { listEvents, type EventRow, type RingRow } from '../store/events-read.js';
import type { Store } from '../store/db.js';
import type { Queryable } from './location-index.js';
import type { Position } from 'geojson';
import { prepareArea, type Area, type PreparedArea } from './domain/geometry.js';

/** A stored ring (the store's row) with its polygon prepared for point tests instead of its GeoJSON text. */
export interface LiveRing extends Omit<RingRow, 'geojson'> {
  area: PreparedArea;
}

export interface LiveEvent {
  event: EventRow;
  /** Innermost first (ordinal order). */
  rings: LiveRing[];
}

/** Every live event, at most this many (far above a day of feeds; the store's listing caps nothing). */
const MAX_LIVE_EVENTS = 1_000_000;

const RING_COLS = `ring_id::VARCHAR AS ring_id, event_id::VARCHAR AS event_id, ordinal, kind, label, threshold, unit, radius_km, geojson`;

/** Rings of these events (bbox meeting `box` when given), grouped by event, innermost first. */
export async function ringsOfEvents(
  db: Queryable,
  ids: string[],
  box?: [number, number, number, number],
): Promise<Map<string, LiveRing[]>> {
  const out = new Map<string, LiveRing[]>();
  if (ids.length === 0) return out;
  const params: Record<string, DuckDBValue> = { ids: listValue(ids) };
  let where = '';
  if (box) {
    where = ' AND max_lng >= $minLng AND min_lng <= $maxLng AND max_lat >= $minLat AND min_lat <= $maxLat';
    Object.assign(params, { minLng: box[0], minLat: box[1], maxLng: box[2], maxLat: box[3] });
  }
  const rows = await (db as Store).all<RingRow>(
    `SELECT ${RING_COLS} FROM rings WHERE event_id IN (SELECT unnest($ids::UUID[]))${where} ORDER BY event_id, ordinal`,
    params,
  );
  for (const r of rows) {
    const { geojson, ...fields } = r;
    const ring: LiveRing = { ...fields, area: prepareArea(JSON.parse(geojson)) };
    const list = out.get(r.event_id);
    if (list) list.push(ring);
    else out.set(r.event_id, [ring]);
  }
  return out;
}

/** The live events at `now` that have rings meeting `box` (all live events with rings when no box), newest first. */
/** @public bench/portfolios.ts imports it into its generated child script. */
export async function liveEventsWithRings(
  db: Store,
  now: string,
  box?: [number, number, number, number],
  types?: EventType[],
): Promise<LiveEvent[]> {
  const { rows } = await listEvents(
    db,
    { now, statuses: ['active', 'monitoring'], eventTypes: types },
    { limit: MAX_LIVE_EVENTS },
  );
  const rings = await ringsOfEvents(
    db,
    rows.map((e) => e.id),
    box,
  );
  return rows.filter((e) => rings.has(e.id)).map((event) => ({ event, rings: rings.get(event.id)! }));
}

/** How exposure answers name an event: its identity, state and severity, and its provenance (docs/contract.md#scores names). */
export interface EventHeader extends Pick<
  EventRow,
  'slug' | 'title' | 'event_type' | 'status' | 'severity' | 'severity_label' | 'source' | 'source_url' | 'ingested_at'
> {
  event_id: string;
  provenance: Pick<EventRow, 'source' | 'source_url' | 'ingested_at' | 'updated_at'>;
}

export function eventHeaderOf(e: EventRow): EventHeader {
  return {
    event_id: e.id,
    slug: e.slug,
    title: e.title,
    event_type: e.event_type,
    status: e.status,
    severity: e.severity,
    severity_label: e.severity_label,
    // The three record fields of docs/contract.md#provenance at the row's top level, like every record; `provenance` adds updated_at.
    source: e.source,
    source_url: e.source_url,
    ingested_at: e.ingested_at,
    provenance: { source: e.source, source_url: e.source_url, ingested_at: e.ingested_at, updated_at: e.updated_at },
  };
}

/**
 * A ring of the swath: for each wind threshold, the union of the event's rings of that threshold over every
 * fix (and version) up to the clock, as one MultiPolygon of the per-fix polygons (a point is inside when it
 * is inside any of them). ring_id is the event's current ring of the same kind and threshold, null when the
 * storm no longer has one (its 64-kt winds are gone).
 */
export interface SwathRing extends Omit<LiveRing, 'ring_id' | 'radius_km'> {
  ring_id: string | null;
  radius_km: null;
  /** How many fixes (versions) the union takes in, and the first and last of them. */
  fixes: number;
  from: string;
  to: string;
}

/** Any ring exposure walks: a live ring (now) or a swath ring (so far). */
export type ExposureRing = LiveRing | SwathRing;

interface HistoryRow {
  event_id: string;
  valid_at: string;
  kind: string;
  label: string;
  threshold: number | null;
  unit: string | null;
  geojson: string;
}

/**
 * The swath of each live event up to `now` (docs/portfolios.md "Now and so far"): its wind rings' union over
 * the ring history, innermost (highest threshold) first, then its other current rings as they are (kinds that
 * do not travel: a cone, an alert area, an intensity ring). An event without history (stored before the
 * history was kept) has its current rings as its swath.
 */
export async function swathOfEvents(
  db: Queryable,
  events: Array<{ id: string; updated_at: string; rings: LiveRing[] }>,
  now: string,
): Promise<Map<string, SwathRing[]>> {
  const out = new Map<string, SwathRing[]>();
  if (events.length === 0) return out;
  const rows = await (db as Store).all<HistoryRow>(
    `SELECT event_id::VARCHAR AS event_id, strftime(valid_at, '%Y-%m-%dT%H:%M:%SZ') AS valid_at, kind, label, threshold, unit, geojson
       FROM ring_history WHERE event_id IN (SELECT unnest($ids::UUID[])) AND valid_at <= $now::TIMESTAMP ORDER BY event_id, valid_at, threshold DESC`,
    { ids: listValue(events.map((e) => e.id)), now },
  );
  const byEvent = new Map<string, HistoryRow[]>();
  for (const r of rows) byEvent.set(r.event_id, [...(byEvent.get(r.event_id) ?? []), r]);
  for (const { id, updated_at, rings } of events) {
    const history = byEvent.get(id) ?? [];
    const groups = new Map<
      string,
      {
        kind: string;
        label: string;
        threshold: number | null;
        unit: string | null;
        polygons: Position[][][];
        times: string[];
      }
    >();
    const keyOf = (kind: string, threshold: number | null, label: string) => `${kind}|${threshold ?? label}`;
    const add = (
      kind: string,
      label: string,
      threshold: number | null,
      unit: string | null,
      geometry: Area,
      at: string,
    ) => {
      const k = keyOf(kind, threshold, label);
      const g = groups.get(k) ?? { kind, label, threshold, unit, polygons: [], times: [] };
      g.label = label; // the latest label of the threshold (a published radius after a parametric estimate)
      g.polygons.push(...(geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates));
      if (!g.times.includes(at)) g.times.push(at);
      groups.set(k, g);
    };
    for (const h of history) add(h.kind, h.label, h.threshold, h.unit, JSON.parse(h.geojson) as Area, h.valid_at);
    const current = new Map(rings.map((r) => [keyOf(r.kind, r.threshold, r.label), r]));
    const swath: SwathRing[] = [];
    const wind = [...groups.entries()].sort(([, a], [, b]) => (b.threshold ?? 0) - (a.threshold ?? 0));
    for (const [k, g] of wind) {
      const now = current.get(k);
      const area = prepareArea({ type: 'MultiPolygon', coordinates: g.polygons });
      swath.push({
        ring_id: now?.ring_id ?? null,
        event_id: id,
        ordinal: swath.length,
        kind: g.kind,
        label: now?.label ?? g.label,
        threshold: g.threshold,
        unit: g.unit,
        radius_km: null,
        area,
        fixes: g.times.length,
        from: g.times[0],
        to: g.times[g.times.length - 1],
      });
    }
    // Current rings the history does not hold: other kinds, or every ring of an event stored before it was kept.
    for (const r of rings) {
      if (groups.has(keyOf(r.kind, r.threshold, r.label))) continue;
      swath.push({ ...r, ordinal: swath.length, radius_km: null, fixes: 1, from: updated_at, to: updated_at });
    }
    out.set(id, swath);
  }
  return out;
}

/** A live event with its rings now and its swath so far. */
export interface LiveEventSoFar extends LiveEvent {
  swath: SwathRing[];
}

const meets = (a: PreparedArea, box: [number, number, number, number]) =>
  a.maxLng >= box[0] && a.minLng <= box[2] && a.maxLat >= box[1] && a.minLat <= box[3];

/** Whether any event is live at `now` (one row read): when none is, no exposure needs a portfolio's extent. */
export async function anyLiveEvent(db: Store, now: string): Promise<boolean> {
  const { rows } = await listEvents(db, { now, statuses: ['active', 'monitoring'] }, { limit: 1 });
  return rows.length > 0;
}

/**
 * The live events at `now` whose rings now or whose swath so far meet `box` (all live events with either when
 * no box): `rings` are the current rings meeting the box, `swath` the swath rings meeting it.
 */
export async function liveEventsSoFar(
  db: Store,
  now: string,
  box?: [number, number, number, number],
  types?: EventType[],
): Promise<LiveEventSoFar[]> {
  const { rows } = await listEvents(
    db,
    { now, statuses: ['active', 'monitoring'], eventTypes: types },
    { limit: MAX_LIVE_EVENTS },
  );
  if (rows.length === 0) return [];
  let chosen = rows;
  if (box) {
    const params = {
      ids: listValue(rows.map((e) => e.id)),
      now,
      minLng: box[0],
      minLat: box[1],
      maxLng: box[2],
      maxLat: box[3],
    };
    const within =
      'max_lng >= $minLng AND min_lng <= $maxLng AND max_lat >= $minLat AND min_lat <= $maxLat AND event_id IN (SELECT unnest($ids::UUID[]))';
    const hit = await db.all<{ id: string }>(
      `SELECT DISTINCT event_id::VARCHAR AS id FROM rings WHERE ${within} AND $now::TIMESTAMP IS NOT NULL
       UNION SELECT DISTINCT event_id::VARCHAR AS id FROM ring_history WHERE ${within} AND valid_at <= $now::TIMESTAMP`,
      params,
    );
    const ids = new Set(hit.map((h) => h.id));
    chosen = rows.filter((e) => ids.has(e.id));
  }
  const rings = await ringsOfEvents(
    db,
    chosen.map((e) => e.id),
  );
  const swath = await swathOfEvents(
    db,
    chosen.map((e) => ({ id: e.id, updated_at: e.updated_at, rings: rings.get(e.id) ?? [] })),
    now,
  );
  const out: LiveEventSoFar[] = [];
  for (const event of chosen) {
    const now = (rings.get(event.id) ?? []).filter((r) => !box || meets(r.area, box));
    const sofar = (swath.get(event.id) ?? []).filter((r) => !box || meets(r.area, box));
    if (now.length > 0 || sofar.length > 0) out.push({ event, rings: now, swath: sofar });
  }
  return out;
}
