/**
 * The live set as the stream compares it: every event live at the clock (active or monitoring), as the
 * GeoJSON feature /events/live serves, with a fingerprint of its rings. Taken after each store change and
 * on a timer (the clock alone moves statuses on), then diffed against the previous one (diff.ts).
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { DuckDBValue } from '@duckdb/node-api';
import { eventFeature } from '../domain/features.js';
import { provenanceOf, type Provenance } from '../domain/provenance.js';
import { listEvents, whereOf, type EventFilter } from '../store/events-read.js';
import type { Store } from '../store/db.js';
import type { EventFeature, RingSummary } from './messages.js';

export interface LiveEntry {
  feature: EventFeature;
  /** Everything a client sees of the event, as one string: a change here is an `event.updated`. */
  key: string;
  rings: RingSummary[];
  /** Kinds, labels, thresholds and each polygon's hash: a change here is a `rings.changed`. */
  ringsKey: string;
}

export type LiveSnapshot = Map<string, LiveEntry>;

/** Read in one page: the live set is hundreds to a few thousand events (a bound keeps a runaway store in check). */
const MAX_LIVE = 200_000;

export async function liveSnapshot(db: Store, now: string): Promise<LiveSnapshot> {
  const out: LiveSnapshot = new Map();
  const filter: EventFilter = { now, statuses: ['active', 'monitoring'] };
  const page = await listEvents(db, filter, { limit: MAX_LIVE });
  for (const row of page.rows) {
    const feature = eventFeature(row) as EventFeature;
    out.set(row.id, { feature, key: JSON.stringify(feature), rings: [], ringsKey: '' });
    if (out.size % 256 === 0) await nextTurn(); // thousands of events: let the requests around it in
  }
  if (out.size === 0) return out;
  // The rings of the same live set, selected by the same conditions (a list of thousands of ids as a parameter is slower).
  const params: Record<string, DuckDBValue> = {};
  const where = whereOf(filter, params);
  const rows = await db.all<Omit<RingSummary, keyof Provenance> & { event_id: string; g: string }>(
    `SELECT event_id::VARCHAR AS event_id, kind, label, threshold, unit, radius_km, md5(geojson) AS g
       FROM rings WHERE event_id IN (SELECT id FROM events WHERE ${where.join(' AND ')}) ORDER BY event_id, ordinal`,
    params,
  );
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  for (const r of rows) {
    const entry = out.get(r.event_id);
    if (!entry) continue;
    // A ring's provenance is its event's, as GET /events/{id}/rings gives it; not in the fingerprint (an event.updated says it).
    entry.rings.push({ kind: r.kind, label: r.label, threshold: r.threshold, unit: r.unit, radius_km: r.radius_km, ...provenanceOf(entry.feature.properties) });
    let h = hashes.get(r.event_id);
    if (!h) hashes.set(r.event_id, (h = createHash('sha1')));
    h.update(`${r.kind}|${r.label}|${r.threshold}|${r.unit}|${r.radius_km}|${r.g};`);
  }
  for (const [id, h] of hashes) out.get(id)!.ringsKey = h.digest('base64url');
  return out;
}
