/**
 * What the OGC API - Features collections need beyond the event queries of events-read.ts: the rings of the
 * events a filter selects (one row per ring, filtered by the ring's own bbox), and the extent of each
 * collection. Event selection is events-read's `whereOf`, so /events/live, /collections/events/items and
 * /collections/rings/items always agree on which events are live.
 */
import type { DuckDBValue } from '@duckdb/node-api';
import type { Store } from './db.js';
import { whereOf, type EventFilter, type Page, type RingRow } from './events-read.js';

export interface LiveRingRow extends RingRow {
  event_type: string;
  event_title: string;
  /** The ring's event's provenance: a ring is made from the event record. */
  source: string;
  source_url: string;
  ingested_at: string;
}

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;

/** The events of the filter without its bbox (a ring is selected by its own extent, not its event's point). */
function ringBase(f: EventFilter, params: Record<string, DuckDBValue>): string {
  const where = whereOf({ ...f, bbox: undefined }, params);
  const ringWhere: string[] = [];
  if (f.bbox) {
    const [minLng, minLat, maxLng, maxLat] = f.bbox;
    Object.assign(params, { minLng, minLat, maxLng, maxLat });
    ringWhere.push('r.max_lat >= $minLat AND r.min_lat <= $maxLat');
    // A box whose west edge is east of its east edge crosses the antimeridian (OGC API - Features).
    ringWhere.push(
      minLng <= maxLng
        ? 'r.max_lng >= $minLng AND r.min_lng <= $maxLng'
        : '(r.max_lng >= $minLng OR r.min_lng <= $maxLng)',
    );
  }
  return `FROM rings r JOIN (SELECT id, title, event_type, started_at, source, source_url, ingested_at FROM events WHERE ${where.join(' AND ')}) e ON r.event_id = e.id
    ${ringWhere.length ? `WHERE ${ringWhere.join(' AND ')}` : ''}`;
}

const RING_COLUMNS = `r.ring_id::VARCHAR AS ring_id, r.event_id::VARCHAR AS event_id, r.ordinal, r.kind, r.label, r.threshold, r.unit,
  r.radius_km, r.geojson, e.event_type, e.title AS event_title, e.source, e.source_url, ${iso('e.ingested_at')} AS ingested_at`;

/** Rings of the selected events: newest event first, each event's rings innermost first; offset-paged. */
export async function listRings(
  db: Store,
  f: EventFilter,
  page: { limit: number; offset: number },
): Promise<Page<LiveRingRow>> {
  const params: Record<string, DuckDBValue> = {};
  const base = ringBase(f, params);
  const count = await db.one<{ n: bigint }>(`SELECT count(*) AS n ${base}`, params);
  const rows = await db.all<LiveRingRow>(
    `SELECT ${RING_COLUMNS} ${base} ORDER BY e.started_at DESC, r.event_id, r.ordinal LIMIT $limit OFFSET $offset`,
    { ...params, limit: page.limit, offset: page.offset },
  );
  return { matched: Number(count?.n ?? 0), rows };
}

export async function findRing(db: Store, f: EventFilter, ringId: string): Promise<LiveRingRow | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ringId)) return undefined;
  const params: Record<string, DuckDBValue> = { ringId };
  const base = ringBase(f, params);
  return db.one<LiveRingRow>(
    `SELECT ${RING_COLUMNS} ${base} ${f.bbox ? 'AND' : 'WHERE'} r.ring_id = $ringId::UUID`,
    params,
  );
}

export interface Extent {
  bbox: [number, number, number, number];
  /** The earliest start; the interval's end is open while the events are live. */
  start: string;
}

/** Extents of the events (their points) and of their rings; undefined when the filter selects nothing. */
export async function liveExtents(db: Store, f: EventFilter): Promise<{ events?: Extent; rings?: Extent }> {
  const params: Record<string, DuckDBValue> = {};
  const where = whereOf(f, params);
  const ev = await db.one<{ n: bigint; x0: number; y0: number; x1: number; y1: number; t0: string }>(
    `SELECT count(*) AS n, min(lng) AS x0, min(lat) AS y0, max(lng) AS x1, max(lat) AS y1, ${iso('min(started_at)')} AS t0
       FROM events WHERE ${where.join(' AND ')}`,
    params,
  );
  const ringParams: Record<string, DuckDBValue> = {};
  const base = ringBase(f, ringParams);
  const ri = await db.one<{ n: bigint; x0: number; y0: number; x1: number; y1: number; t0: string }>(
    `SELECT count(*) AS n, min(r.min_lng) AS x0, min(r.min_lat) AS y0, max(r.max_lng) AS x1, max(r.max_lat) AS y1, ${iso('min(e.started_at)')} AS t0 ${base}`,
    ringParams,
  );
  const extent = (r: typeof ev): Extent | undefined =>
    r && Number(r.n) > 0 ? { bbox: [r.x0, r.y0, r.x1, r.y1], start: r.t0 } : undefined;
  return { events: extent(ev), rings: extent(ri) };
}
