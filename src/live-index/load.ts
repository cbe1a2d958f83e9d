/**
 * Reads the store into a snapshot: the events not ended at the build instant with their observations and
 * ring counts, and the lookup keys of the rest. Columns are the SQL path's (events-read.ts), formatted by
 * DuckDB the same way, so the prebuilt JSON is byte for byte what the SQL path would send.
 *
 * A build after a write reads only what the write changed. DuckDB gives every live event a version
 * (src/store/event-versions.ts) and the ended events one fingerprint; an event whose
 * version the previous snapshot holds keeps its entry, and only new or changed events are read and rendered.
 * Rendering thousands of unchanged events on every write was most of a server's work beside a busy cron
 * (docs/performance.md, "Readers beside writers"). When nothing changed, the previous snapshot stays.
 */
import { listValue } from '../store/duckdb.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Store, Tx } from '../store/db.js';
import { eventVersionsSql } from '../store/event-versions.js';
import { entryOf, type Entry, type IndexRow, type ObservationJson } from './entry.js';
import { buildSnapshot, type Snapshot, type StoreVersions } from './snapshot.js';

/** Events rendered between two turns of the event loop: a few milliseconds of work. */
const ENTRIES_PER_SLICE = 64;

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;
const NOT_ENDED = 'ended_at IS NULL OR ended_at > $now::TIMESTAMP';

/** The ended events' lookup keys change only with this. */
const ENDED_FINGERPRINT_SQL = `
  SELECT (count(*)::VARCHAR || ':' || coalesce(sum(hash(slug, lower(source_id), json_extract(details, '$.ids'))), 0)::VARCHAR) AS fingerprint
    FROM events WHERE NOT (${NOT_ENDED})`;

export async function loadSnapshot(store: Store, now: Date, previous?: Snapshot): Promise<Snapshot> {
  // One committed state for all reads: an ingest committing between them must not mix its observations
  // into the events before it.
  return store.reads((db) => readSnapshot(db, now, previous));
}

async function readSnapshot(db: Tx, now: Date, previous: Snapshot | undefined): Promise<Snapshot> {
  const params = { now: now.toISOString() };
  const nowUs = now.getTime() * 1000;
  const versions: StoreVersions = {
    events: new Map(
      (await db.all<{ id: string; version: string }>(eventVersionsSql(NOT_ENDED), params)).map((r) => [
        r.id,
        r.version,
      ]),
    ),
    ended: (await db.all<{ fingerprint: string }>(ENDED_FINGERPRINT_SQL, params))[0].fingerprint,
  };
  const kept = new Map<string, Entry>();
  if (previous) {
    for (const [id, version] of versions.events) {
      const entry = previous.byId.get(id);
      if (entry && previous.versions.events.get(id) === version) kept.set(id, entry);
    }
    // The same events in the same versions, the same ended ones: the previous snapshot is still exact for
    // every now at or after its build (an earlier now is the SQL path's either way).
    if (
      kept.size === versions.events.size &&
      kept.size === previous.byId.size &&
      versions.ended === previous.versions.ended &&
      nowUs >= previous.builtAtUs
    ) {
      return previous;
    }
  }
  const changed = [...versions.events.keys()].filter((id) => !kept.has(id));
  const entries = [...kept.values()];
  if (changed.length > 0) entries.push(...(await readEntries(db, changed)));
  const endedKeys =
    previous && versions.ended === previous.versions.ended ? previous.endedKeys : await readEndedKeys(db, params);
  return buildSnapshot(entries, endedKeys, nowUs, versions);
}

/** The events `ids` rendered, with their observations and ring counts. */
async function readEntries(db: Tx, ids: string[]): Promise<Entry[]> {
  const params = { ids: listValue(ids) };
  const ONLY = 'IN (SELECT unnest($ids::UUID[]))';
  const rows = await db.all<
    IndexRow & { started_us: bigint; updated_us: bigint; monitoring_us: bigint | null; ended_us: bigint | null }
  >(
    `SELECT id::VARCHAR AS id, slug, title, event_type, severity, severity_label,
       ${iso('started_at')} AS started_at, ${iso('updated_at')} AS updated_at, ${iso('ingested_at')} AS ingested_at,
       ${iso('monitoring_from')} AS monitoring_from, ${iso('ended_at')} AS ended_at_iso,
       epoch_us(started_at) AS started_us, epoch_us(updated_at) AS updated_us,
       epoch_us(monitoring_from) AS monitoring_us, epoch_us(ended_at) AS ended_us,
       lat, lng, source, source_id, lower(source_id) AS source_key, source_url, confidence_score, details::VARCHAR AS details,
       CAST(json_extract(details, '$.ids') AS VARCHAR[]) AS ids
     FROM events WHERE id ${ONLY}`,
    params,
  );
  const observations = new Map<string, ObservationJson[]>();
  const obsRows = await db.all<ObservationJson & { event_id: string }>(
    `SELECT event_id::VARCHAR AS event_id, kind, ${iso('observed_at')} AS observed_at, value, unit, lat, lng FROM observations
      WHERE event_id ${ONLY} ORDER BY event_id, observed_at, kind`,
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
    `SELECT event_id::VARCHAR AS event_id, count(*) AS n FROM rings WHERE event_id ${ONLY} GROUP BY event_id`,
    params,
  ))
    ringCounts.set(r.event_id, Number(r.n));
  // Rendered a slice at a time, letting requests in between: a first build is thousands of events.
  const entries: Entry[] = [];
  for (const r of rows) {
    entries.push(
      entryOf(
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
      ),
    );
    if (entries.length % ENTRIES_PER_SLICE === 0) await nextTurn();
  }
  return entries;
}

async function readEndedKeys(db: Tx, params: { now: string }): Promise<Set<string>> {
  const endedKeys = new Set<string>();
  for (const k of await db.all<{ slug: string; source_key: string; ids: string[] | null }>(
    `SELECT slug, lower(source_id) AS source_key, CAST(json_extract(details, '$.ids') AS VARCHAR[]) AS ids FROM events WHERE NOT (${NOT_ENDED})`,
    params,
  )) {
    endedKeys.add(k.slug);
    endedKeys.add(k.source_key);
    for (const id of k.ids ?? []) endedKeys.add(id);
  }
  return endedKeys;
}
