/**
 * Writes prepared events inside the ingest transaction. A new event takes the first free of its slug
 * candidates (src/lib/ids.ts), so two events never share a slug. A record whose content hash is unchanged is
 * left alone; a newer version replaces the event row (slug and ingested_at are kept, so links stay
 * stable) and takes the rings of the kinds its feed speaks for, keeping the event's other rings
 * (src/domain/rings/merge.ts: WFIGS points and perimeters, NHC radii and cones); an older version may
 * still bring a source-drawn ring where the event only has an estimate. Observations are appended once
 * each (primary key event, kind, time). A held version from after the clock (a replay run backwards) is
 * rewound to the record, which ingest has read as of the clock.
 */
import type { DuckDBValue } from '@duckdb/node-api';
import { listValue } from './duckdb.js';
import type { PreparedEvent } from '../domain/prepared-event.js';
import type { Ring } from '../domain/event.js';
import { mergeRings, ringKindsOf, sameRings } from '../domain/rings/merge.js';
import { ringIdOf, slugCandidates } from '../lib/ids.js';
import { bboxOf } from '../lib/geo.js';
import { toWkt } from '../lib/wkt.js';
import type { Tx } from './db.js';
import { cols, insertRows } from './bulk.js';

export interface WriteCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

interface Existing {
  id: string;
  content_hash: string;
  slug: string;
  ingested_at: string;
  updated_at: string;
}

const EVENT_COLUMNS = cols(
  'id:UUID, source, source_id, slug, title, event_type, severity:DOUBLE, severity_label, started_at:TIMESTAMP, updated_at:TIMESTAMP, ingested_at:TIMESTAMP, monitoring_from:TIMESTAMP, ended_at:TIMESTAMP, lat:DOUBLE, lng:DOUBLE, geom:GEOMETRY, source_url, confidence_score:DOUBLE, details:JSON, content_hash',
);
const RING_COLUMNS = cols(
  'ring_id:UUID, event_id:UUID, ordinal:INTEGER, kind, label, threshold:DOUBLE, unit, radius_km:DOUBLE, min_lng:DOUBLE, min_lat:DOUBLE, max_lng:DOUBLE, max_lat:DOUBLE, geom:GEOMETRY, geojson, estimate:BOOLEAN',
);
const HISTORY_COLUMNS = cols(
  'event_id:UUID, valid_at:TIMESTAMP, kind, label, threshold:DOUBLE, unit, min_lng:DOUBLE, min_lat:DOUBLE, max_lng:DOUBLE, max_lat:DOUBLE, geojson',
);
/** The ring kinds that travel with a moving event and whose union over time is its swath. */
export const SWATH_KINDS: ReadonlySet<string> = new Set(['wind_kt']);
const OBSERVATION_COLUMNS = cols(
  'event_id:UUID, kind, observed_at:TIMESTAMP, value:DOUBLE, unit, lat:DOUBLE, lng:DOUBLE, ingested_at:TIMESTAMP',
);

export async function writeEvents(
  tx: Tx,
  source: string,
  events: PreparedEvent[],
  nowIso: string,
): Promise<WriteCounts> {
  const existing = await storedVersions(tx, source, events);

  const counts: WriteCounts = { inserted: 0, updated: 0, unchanged: 0 };
  const toWrite: { e: PreparedEvent; slug: string; ingestedAt: string }[] = [];
  const replaced: string[] = [];
  const ringsOnly: PreparedEvent[] = []; // older versions that bring a better ring
  const rewound: string[] = [];
  const slugs = await newSlugs(
    tx,
    events.filter((e) => !existing.has(e.id)),
  );
  const held = await heldRings(
    tx,
    events
      .filter((e) => {
        const o = existing.get(e.id);
        return o && o.content_hash !== e.contentHash;
      })
      .map((e) => e.id),
  );
  for (const e of events) {
    const old = existing.get(e.id);
    if (!old) {
      counts.inserted++;
      toWrite.push({ e, slug: slugs.get(e.id)!, ingestedAt: nowIso });
      continue;
    }
    if (old.content_hash === e.contentHash) {
      counts.unchanged++; // the same version
      continue;
    }
    const [t, heldT] = [Date.parse(e.record.sourceUpdatedAt), Date.parse(old.updated_at)];
    if (heldT > Date.parse(nowIso)) {
      // The store holds a version from after the clock (a replay run backwards): the event goes back to
      // what the source had published by now, rings and observations included (src/sources/as-of.ts).
      counts.updated++;
      replaced.push(e.id);
      rewound.push(e.id);
      toWrite.push({ e, slug: old.slug, ingestedAt: old.ingested_at < nowIso ? old.ingested_at : nowIso });
      continue;
    }
    const mine = held.get(e.id) ?? [];
    const rings = mergeRings(mine, e.rings, ringKindsOf(e.record.ringInput, e.rings), t >= heldT);
    // Same update time (the two WFIGS layers of one fire, an advisory and its GIS zip): the other feed's
    // record becomes the version only when it changes the rings, so alternating re-ingests are no-ops.
    const newer = t > heldT || (t === heldT && rings !== null && !sameRings(rings, mine));
    if (newer) {
      counts.updated++;
      replaced.push(e.id);
      toWrite.push({ e: { ...e, rings: rings ?? e.rings }, slug: old.slug, ingestedAt: old.ingested_at });
    } else if (t < heldT && rings && !sameRings(rings, mine)) {
      counts.updated++;
      ringsOnly.push({ ...e, rings });
    } else {
      counts.unchanged++; // an older version than we hold, with nothing better to add
    }
  }

  const ringsReplaced = [...replaced, ...ringsOnly.map((e) => e.id)];
  if (ringsReplaced.length > 0) {
    await tx.run(
      `DELETE FROM rings WHERE event_id IN (${ringsReplaced.map(() => '?::UUID').join(', ')})`,
      ringsReplaced,
    );
  }
  if (replaced.length > 0)
    await tx.run(`DELETE FROM events WHERE id IN (${replaced.map(() => '?::UUID').join(', ')})`, replaced);
  if (rewound.length > 0) {
    await tx.run(
      `DELETE FROM observations WHERE observed_at > ?::TIMESTAMP AND event_id IN (${rewound.map(() => '?::UUID').join(', ')})`,
      [nowIso, ...rewound],
    );
    await tx.run(
      `DELETE FROM ring_history WHERE valid_at > ?::TIMESTAMP AND event_id IN (${rewound.map(() => '?::UUID').join(', ')})`,
      [nowIso, ...rewound],
    );
  }
  await insertRows(
    tx,
    'events',
    EVENT_COLUMNS,
    toWrite.map(({ e, slug, ingestedAt }) => eventRow(e, slug, ingestedAt)),
  );
  await insertRows(tx, 'rings', RING_COLUMNS, [...toWrite.map(({ e }) => e), ...ringsOnly].flatMap(ringRows));
  await insertRows(
    tx,
    'ring_history',
    HISTORY_COLUMNS,
    toWrite.flatMap(({ e }) => historyRows(e)),
    { skipExisting: ['event_id', 'valid_at', 'kind', 'label'] },
  );
  await insertRows(
    tx,
    'observations',
    OBSERVATION_COLUMNS,
    toWrite.flatMap(({ e }) => observationRows(e, nowIso)),
    { skipExisting: ['event_id', 'kind', 'observed_at'] },
  );
  return counts;
}

/**
 * The stored version of each event of the batch. A feed read again is mostly unchanged records, so the
 * hashes come first (two narrow columns of the batch's ids only) and the rest of the stored row only for
 * the events whose hash differs: re-ingesting an unchanged feed reads no timestamps and no slugs.
 */
async function storedVersions(tx: Tx, source: string, events: PreparedEvent[]): Promise<Map<string, Existing>> {
  const existing = new Map<string, Existing>();
  if (events.length === 0) return existing;
  const hashOf = new Map(events.map((e) => [e.id, e.contentHash]));
  const hashes = await tx.all<{ id: string; content_hash: string }>(
    'SELECT id::VARCHAR AS id, content_hash FROM events WHERE source = $source AND id IN (SELECT unnest($ids::UUID[]))',
    { source, ids: listValue([...hashOf.keys()]) },
  );
  for (const r of hashes)
    existing.set(r.id, { id: r.id, content_hash: r.content_hash, slug: '', ingested_at: '', updated_at: '' });
  const changed = hashes.filter((r) => r.content_hash !== hashOf.get(r.id)).map((r) => r.id);
  if (changed.length === 0) return existing;
  const rows = await tx.all<Omit<Existing, 'content_hash'>>(
    `SELECT id::VARCHAR AS id, slug, strftime(ingested_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS ingested_at,
            strftime(updated_at, '%Y-%m-%dT%H:%M:%S.%gZ') AS updated_at
       FROM events WHERE id IN (SELECT unnest($ids::UUID[]))`,
    { ids: listValue(changed) },
  );
  for (const r of rows) Object.assign(existing.get(r.id)!, r);
  return existing;
}

/**
 * A slug for each new event: the first of its candidates (src/lib/ids.ts) that no stored event and no
 * other new event holds. Taken in id order, so the same feed on the same store gives the same slugs
 * whatever the order of its records.
 */
async function newSlugs(tx: Tx, events: PreparedEvent[]): Promise<Map<string, string>> {
  if (events.length === 0) return new Map();
  const candidates = new Map(events.map((e) => [e.id, slugCandidates(e.record.title, e.record.startedAt, e.id)]));
  const stored = await tx.all<{ slug: string }>(
    'SELECT slug FROM events WHERE slug IN (SELECT unnest($slugs::VARCHAR[]))',
    { slugs: listValue([...candidates.values()].flat()) },
  );
  const taken = new Set(stored.map((r) => r.slug));
  const out = new Map<string, string>();
  for (const id of [...candidates.keys()].sort()) {
    const options = candidates.get(id)!;
    // Every candidate taken is beyond any title and date (see slugCandidates); the last one is then left
    // to the store's UNIQUE constraint, and the record is skipped with its reason (src/ingest/isolate.ts).
    const slug = options.find((s) => !taken.has(s)) ?? options[options.length - 1];
    taken.add(slug);
    out.set(id, slug);
  }
  return out;
}

/** The stored rings of these events, innermost first, as the merge needs them. */
async function heldRings(tx: Tx, ids: string[]): Promise<Map<string, Ring[]>> {
  const out = new Map<string, Ring[]>();
  if (ids.length === 0) return out;
  const rows = await tx.all<{
    event_id: string;
    kind: string;
    label: string;
    threshold: number | null;
    unit: string | null;
    radius_km: number | null;
    geojson: string;
    estimate: boolean | null;
  }>(
    `SELECT event_id::VARCHAR AS event_id, kind, label, threshold, unit, radius_km, geojson, estimate
       FROM rings WHERE event_id IN (SELECT unnest($ids::UUID[])) ORDER BY event_id, ordinal`,
    { ids: listValue(ids) },
  );
  for (const r of rows) {
    const ring: Ring = {
      kind: r.kind,
      label: r.label,
      threshold: r.threshold,
      unit: r.unit,
      radiusKm: r.radius_km,
      geometry: JSON.parse(r.geojson),
    };
    if (r.estimate) ring.estimate = true;
    out.set(r.event_id, [...(out.get(r.event_id) ?? []), ring]);
  }
  return out;
}

function eventRow(e: PreparedEvent, slug: string, ingestedAt: string): DuckDBValue[] {
  const r = e.record;
  return [
    e.id,
    r.source,
    r.sourceId,
    slug,
    r.title,
    r.eventType,
    r.severity,
    r.severityLabel,
    r.startedAt,
    r.sourceUpdatedAt,
    ingestedAt,
    e.lifecycle.monitoringFrom,
    e.lifecycle.endedAt,
    r.lat,
    r.lng,
    `POINT (${r.lng} ${r.lat})`,
    r.sourceUrl,
    r.confidence,
    JSON.stringify(r.details),
    e.contentHash,
  ];
}

function ringRows(e: PreparedEvent): DuckDBValue[][] {
  return e.rings.map((ring, ordinal) => {
    const [minLng, minLat, maxLng, maxLat] = bboxOf(ring.geometry.coordinates);
    return [
      ringIdOf(e.id, ordinal),
      e.id,
      ordinal,
      ring.kind,
      ring.label,
      ring.threshold,
      ring.unit,
      ring.radiusKm,
      minLng,
      minLat,
      maxLng,
      maxLat,
      toWkt(ring.geometry),
      JSON.stringify(ring.geometry),
      ring.estimate === true,
    ];
  });
}

/** The wind rings of the version and of its track's earlier fixes, each at its own time, once per (time, kind, label). */
function historyRows(e: PreparedEvent): DuckDBValue[][] {
  const seen = new Set<string>();
  const out: DuckDBValue[][] = [];
  for (const { at, rings } of [...e.trackRings, { at: e.record.sourceUpdatedAt, rings: e.rings }]) {
    for (const ring of rings) {
      if (!SWATH_KINDS.has(ring.kind)) continue;
      const key = `${Date.parse(at)}|${ring.kind}|${ring.label}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const [minLng, minLat, maxLng, maxLat] = bboxOf(ring.geometry.coordinates);
      out.push([
        e.id,
        at,
        ring.kind,
        ring.label,
        ring.threshold,
        ring.unit,
        minLng,
        minLat,
        maxLng,
        maxLat,
        JSON.stringify(ring.geometry),
      ]);
    }
  }
  return out;
}

function observationRows(e: PreparedEvent, nowIso: string): DuckDBValue[][] {
  const seen = new Set<string>();
  const out: DuckDBValue[][] = [];
  for (const o of e.record.observations) {
    const key = `${o.kind}|${o.observedAt}`;
    if (seen.has(key)) continue; // one value per kind and instant
    seen.add(key);
    out.push([e.id, o.kind, o.observedAt, o.value, o.unit, o.lat ?? null, o.lng ?? null, nowIso]);
  }
  return out;
}

/**
 * An NWS Update or Cancel names the messages it replaces (CAP `references`). The replaced alerts end
 * when their successor was sent, so one hazard is not shown twice. Sources put those ids in
 * `details.supersedes`.
 */
export async function endSuperseded(tx: Tx, source: string, events: PreparedEvent[]): Promise<number> {
  let ended = 0;
  for (const e of events) {
    const ids = e.record.details.supersedes;
    if (!Array.isArray(ids) || ids.length === 0) continue;
    // Counted before the UPDATE rather than by RETURNING, which DuckLake (a cluster store) does not support.
    const params = { at: e.record.sourceUpdatedAt, source, ids: listValue(ids.map(String)) };
    const ending = `source = $source AND source_id IN (SELECT unnest($ids::VARCHAR[])) AND (ended_at IS NULL OR ended_at > $at::TIMESTAMP)`;
    const [{ n }] = await tx.all<{ n: bigint }>(`SELECT count(*) AS n FROM events WHERE ${ending}`, params);
    if (Number(n) === 0) continue;
    await tx.run(
      `UPDATE events SET ended_at = $at::TIMESTAMP, monitoring_from = least(monitoring_from, $at::TIMESTAMP) WHERE ${ending}`,
      params,
    );
    ended += Number(n);
  }
  return ended;
}
