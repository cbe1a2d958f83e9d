/**
 * The rings of the live events (active and monitoring at now, as /events/live lists them: the store's own
 * listEvents), with the fields exposure answers carry: ring identity, kind, label, threshold, and the
 * event's provenance. Optionally only rings whose bbox meets a box (a portfolio's extent).
 */
import { listValue, type DuckDBValue } from '@duckdb/node-api';
import type { EventType } from '../domain/event.js';
import { listEvents, type EventRow, type RingRow } from '../store/events-read.js';
import type { Store } from '../store/db.js';
import type { Queryable } from './location-index.js';
import { prepareArea, type PreparedArea } from './domain/geometry.js';

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
export async function ringsOfEvents(db: Queryable, ids: string[], box?: [number, number, number, number]): Promise<Map<string, LiveRing[]>> {
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
export async function liveEventsWithRings(db: Store, now: string, box?: [number, number, number, number], types?: EventType[]): Promise<LiveEvent[]> {
  const { rows } = await listEvents(db, { now, statuses: ['active', 'monitoring'], eventTypes: types }, { limit: MAX_LIVE_EVENTS });
  const rings = await ringsOfEvents(db, rows.map((e) => e.id), box);
  return rows.filter((e) => rings.has(e.id)).map((event) => ({ event, rings: rings.get(event.id)! }));
}

/** How exposure answers name an event: its identity, state and severity, and its provenance (CONTRACT §6 names). */
export interface EventHeader extends Pick<EventRow, 'slug' | 'title' | 'event_type' | 'status' | 'severity' | 'severity_label' | 'source' | 'source_url' | 'ingested_at'> {
  event_id: string;
  provenance: Pick<EventRow, 'source' | 'source_url' | 'ingested_at' | 'updated_at'>;
}

export function eventHeaderOf(e: EventRow): EventHeader {
  return {
    event_id: e.id, slug: e.slug, title: e.title, event_type: e.event_type, status: e.status, severity: e.severity, severity_label: e.severity_label,
    // The three record fields of CONTRACT §5 at the row's top level, like every record; `provenance` adds updated_at.
    source: e.source, source_url: e.source_url, ingested_at: e.ingested_at,
    provenance: { source: e.source, source_url: e.source_url, ingested_at: e.ingested_at, updated_at: e.updated_at },
  };
}
