/**
 * Product versions of hurricanes and earthquakes (docs/event-diff.md). The events table keeps one version
 * per event; each ingest that changes what the API shows of a hurricane or an earthquake also keeps a copy
 * of it here (the row as read at the ingest's clock, its observations, its rings' summaries), numbered
 * 1, 2, ... per event, so that two advisories can be compared and a live loss recomputed for each. A replay
 * run backwards (a clock before versions already stored) drops the versions after it.
 */
import { cols, insertRows } from './bulk.js';
import { listValue } from './duckdb.js';
import type { Tx, Store } from './db.js';
import { eventVersionsSql } from './event-versions.js';
import { eventsByIds, type EventRow, type ObservationRow } from './events-read.js';
import { productVersionOf } from '../domain/product-version.js';

/** The event types with a model package, whose versions a live loss runs on. */
export const VERSIONED_TYPES = ['hurricane', 'earthquake'] as const;

export interface RingSummaryOfVersion {
  kind: string;
  label: string;
  threshold: number | null;
  unit: string | null;
  radius_km: number | null;
  /** md5 of the ring's GeoJSON: a ring of the same label redrawn has another. */
  geometry_md5: string;
}

export interface EventVersion {
  event_id: string;
  version: number;
  stored_at: string;
  product_version: string;
  event: Omit<EventRow, 'sort_us'>;
  observations: ObservationRow[];
  rings: RingSummaryOfVersion[];
}

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;

/** Keeps a new version of each of `ids` that is a hurricane or an earthquake and changed since its last one. Returns how many. */
export async function recordEventVersions(tx: Tx, ids: string[], now: string): Promise<number> {
  if (ids.length === 0) return 0;
  const params = { ids: listValue(ids), now };
  await tx.run(
    `DELETE FROM event_versions WHERE stored_at > $now::TIMESTAMP AND event_id IN (SELECT unnest($ids::UUID[]))`,
    params,
  );
  const current = await tx.all<{ id: string; version: string }>(
    eventVersionsSql(
      `id IN (SELECT unnest($ids::UUID[])) AND event_type IN (${VERSIONED_TYPES.map((t) => `'${t}'`).join(', ')})`,
    ),
    { ids: listValue(ids) },
  );
  if (current.length === 0) return 0;
  const last = new Map(
    (
      await tx.all<{ id: string; n: number; h: string }>(
        `SELECT event_id::VARCHAR AS id, max(version) AS n, arg_max(content_hash, version) AS h
           FROM event_versions WHERE event_id IN (SELECT unnest($ids::UUID[])) GROUP BY event_id`,
        { ids: listValue(current.map((c) => c.id)) },
      )
    ).map((r) => [r.id, r]),
  );
  const changed = current.filter((c) => last.get(c.id)?.h !== c.version);
  if (changed.length === 0) return 0;
  // Set-based: a week of USGS quakes stores thousands of first versions in one ingest.
  const ids2 = changed.map((c) => c.id);
  const rows = await eventsByIds(tx, ids2, now);
  const obsOf = groupBy(
    await tx.all<ObservationRow & { event_id: string }>(
      `SELECT event_id::VARCHAR AS event_id, kind, ${iso('observed_at')} AS observed_at, value, unit, lat, lng FROM observations
        WHERE event_id IN (SELECT unnest($ids::UUID[])) AND observed_at <= $now::TIMESTAMP ORDER BY event_id, observed_at, kind`,
      { ids: listValue(ids2), now },
    ),
  );
  const ringsOf = groupBy(
    await tx.all<RingSummaryOfVersion & { event_id: string }>(
      `SELECT event_id::VARCHAR AS event_id, kind, label, threshold, unit, radius_km, md5(geojson) AS geometry_md5
         FROM rings WHERE event_id IN (SELECT unnest($ids::UUID[])) ORDER BY event_id, ordinal`,
      { ids: listValue(ids2) },
    ),
  );
  const hashOf = new Map(changed.map((c) => [c.id, c.version]));
  await insertRows(
    tx,
    'event_versions',
    VERSION_COLUMNS,
    rows.map((row) => {
      const { sort_us, ...event } = row;
      const observations = obsOf.get(row.id) ?? [];
      return [
        row.id,
        Number(last.get(row.id)?.n ?? 0) + 1,
        now,
        productVersionOf(row, observations),
        hashOf.get(row.id)!,
        JSON.stringify(event),
        JSON.stringify(observations),
        JSON.stringify(ringsOf.get(row.id) ?? []),
      ];
    }),
  );
  return rows.length;
}

const VERSION_COLUMNS = cols(
  'event_id:UUID, version:INTEGER, stored_at:TIMESTAMP, product_version, content_hash, event:JSON, observations:JSON, rings:JSON',
);

/** Rows by their event, without the event_id column. */
function groupBy<T extends { event_id: string }>(rows: T[]): Map<string, Omit<T, 'event_id'>[]> {
  const out = new Map<string, Omit<T, 'event_id'>[]>();
  for (const { event_id, ...rest } of rows) {
    const list = out.get(event_id) ?? [];
    list.push(rest);
    out.set(event_id, list);
  }
  return out;
}

const SELECT_VERSION = `SELECT event_id::VARCHAR AS event_id, version, ${iso('stored_at')} AS stored_at, product_version,
  event::VARCHAR AS event, observations::VARCHAR AS observations, rings::VARCHAR AS rings FROM event_versions`;

interface RawVersion {
  event_id: string;
  version: number;
  stored_at: string;
  product_version: string;
  event: string;
  observations: string;
  rings: string;
}

const parsed = (r: RawVersion): EventVersion => ({
  ...r,
  version: Number(r.version),
  event: JSON.parse(r.event),
  observations: JSON.parse(r.observations),
  rings: JSON.parse(r.rings),
});

/** The versions of an event stored by `now`, oldest first, without their content. */
export async function listEventVersions(
  db: Store | Tx,
  eventId: string,
  now: string,
): Promise<{ version: number; stored_at: string; product_version: string }[]> {
  const rows = await db.all<{ version: number; stored_at: string; product_version: string }>(
    `SELECT version, ${iso('stored_at')} AS stored_at, product_version FROM event_versions
      WHERE event_id = $id::UUID AND stored_at <= $now::TIMESTAMP ORDER BY version`,
    { id: eventId, now },
  );
  return rows.map((r) => ({ ...r, version: Number(r.version) }));
}

export async function readEventVersion(db: Store | Tx, eventId: string, version: number): Promise<EventVersion | null> {
  const rows = await db.all<RawVersion>(`${SELECT_VERSION} WHERE event_id = $id::UUID AND version = $v`, {
    id: eventId,
    v: version,
  });
  return rows.length ? parsed(rows[0]) : null;
}

/** Versions stored after (event, version) pairs given: what a reader that last saw `seen` has not. */
export async function versionsAfter(
  db: Store | Tx,
  seen: ReadonlyMap<string, number>,
  now: string,
): Promise<{ event_id: string; version: number }[]> {
  const rows = await db.all<{ event_id: string; version: number }>(
    `SELECT event_id::VARCHAR AS event_id, max(version) AS version FROM event_versions WHERE stored_at <= $now::TIMESTAMP GROUP BY event_id`,
    { now },
  );
  return rows
    .map((r) => ({ event_id: r.event_id, version: Number(r.version) }))
    .filter((r) => (seen.get(r.event_id) ?? 0) < r.version);
}
