/**
 * Reads the store into a snapshot: the events not ended at the build instant with their observations and
 * ring counts, and the lookup keys of the rest. Columns are the SQL path's (events-read.ts), formatted by
 * DuckDB the same way, so the prebuilt JSON is byte for byte what the SQL path would send.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Store, Tx } from '../store/db.js';
import { entryOf, type IndexRow, type ObservationJson } from './entry.js';
import { buildSnapshot, type Snapshot } from './snapshot.js';

/** Events rendered between two turns of the event loop: a few milliseconds of work. */
const ENTRIES_PER_SLICE = 64;

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;
const NOT_ENDED = 'ended_at IS NULL OR ended_at > $now::TIMESTAMP';

export async function loadSnapshot(store: Store, now: Date): Promise<Snapshot> {
  // One committed state for all four reads: an ingest committing between them must not mix its observations
  // into the events before it.
  return store.reads((db) => readSnapshot(db, now));
}

async function readSnapshot(db: Tx, now: Date): Promise<Snapshot> {
  const params = { now: now.toISOString() };
  const rows = await db.all<IndexRow & { started_us: bigint; updated_us: bigint; monitoring_us: bigint | null; ended_us: bigint | null }>(
    `SELECT id::VARCHAR AS id, slug, title, event_type, severity, severity_label,
       ${iso('started_at')} AS started_at, ${iso('updated_at')} AS updated_at, ${iso('ingested_at')} AS ingested_at,
       ${iso('monitoring_from')} AS monitoring_from, ${iso('ended_at')} AS ended_at_iso,
       epoch_us(started_at) AS started_us, epoch_us(updated_at) AS updated_us,
       epoch_us(monitoring_from) AS monitoring_us, epoch_us(ended_at) AS ended_us,
       lat, lng, source, source_id, lower(source_id) AS source_key, source_url, confidence_score, details::VARCHAR AS details,
       CAST(json_extract(details, '$.ids') AS VARCHAR[]) AS ids
     FROM events WHERE ${NOT_ENDED}`,
    params,
  );
  const observations = new Map<string, ObservationJson[]>();
  const obsRows = await db.all<ObservationJson & { event_id: string }>(
    `SELECT event_id::VARCHAR AS event_id, kind, ${iso('observed_at')} AS observed_at, value, unit, lat, lng FROM observations
      WHERE event_id IN (SELECT id FROM events WHERE ${NOT_ENDED}) ORDER BY event_id, observed_at, kind`,
    params,
  );
  for (const o of obsRows) {
    const list = observations.get(o.event_id) ?? [];
    // The key order of observationsOf()'s rows, which the SQL path serialises.
    list.push({ kind: o.kind, observed_at: o.observed_at, value: o.value, unit: o.unit, lat: o.lat, lng: o.lng });
    observations.set(o.event_id, list);
  }
  const ringCounts = new Map<string, number>();
  for (const r of await db.all<{ event_id: string; n: bigint }>(
    `SELECT event_id::VARCHAR AS event_id, count(*) AS n FROM rings WHERE event_id IN (SELECT id FROM events WHERE ${NOT_ENDED}) GROUP BY event_id`,
    params,
  )) ringCounts.set(r.event_id, Number(r.n));
  const endedKeys = new Set<string>();
  for (const k of await db.all<{ slug: string; source_key: string; ids: string[] | null }>(
    `SELECT slug, lower(source_id) AS source_key, CAST(json_extract(details, '$.ids') AS VARCHAR[]) AS ids FROM events WHERE NOT (${NOT_ENDED})`,
    params,
  )) {
    endedKeys.add(k.slug);
    endedKeys.add(k.source_key);
    for (const id of k.ids ?? []) endedKeys.add(id);
  }
  // Rendered a slice at a time, letting requests in between: a build is thousands of events.
  const entries: ReturnType<typeof entryOf>[] = [];
  for (const r of rows) {
    entries.push(entryOf(
      {
        ...r,
        // µs since epoch fit a double exactly until the year 2255.
        started_us: Number(r.started_us),
        updated_us: Number(r.updated_us),
        monitoring_us: r.monitoring_us === null ? null : Number(r.monitoring_us),
        ended_us: r.ended_us === null ? null : Number(r.ended_us),
      },
      observations.get(r.id) ?? [],
      ringCounts.get(r.id) ?? 0,
    ));
    if (entries.length % ENTRIES_PER_SLICE === 0) await nextTurn();
  }
  return buildSnapshot(entries, endedKeys, now.getTime() * 1000);
}
