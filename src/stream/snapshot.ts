/**
 * The live set as the stream compares it: every event live at the clock (active or monitoring), as the
 * GeoJSON feature /events/live serves, with a fingerprint of its rings. Taken after each store change and
 * on a timer (the clock alone moves statuses on), then diffed against the previous one (diff.ts).
 */
import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { listValue } from '../store/duckdb.js';
import { eventFeature } from '../domain/features.js';
import { provenanceOf, type Provenance } from '../domain/provenance.js';
import { eventsByIds, eventVersionsAt } from '../store/events-read.js';
import type { Store, Tx } from '../store/db.js';
import type { EventFeature, RingSummary } from './messages.js';

export interface LiveEntry {
  feature: EventFeature;
  /** Everything a client sees of the event, as one string: a change here is an `event.updated`. */
  key: string;
  rings: RingSummary[];
  /** Kinds, labels, thresholds and each polygon's hash: a change here is a `rings.changed`. */
  ringsKey: string;
  /** The event's version at the clock of the read (eventVersionsAt): the next read renders it again only when this moves. */
  version: string;
}

export type LiveSnapshot = Map<string, LiveEntry>;

/**
 * The live set at now. Given the previous one, only the events whose version moved are read and rendered
 * again: a write touches a few events of thousands, and rendering them all on every write kept a busy
 * server from its readers.
 */
export async function liveSnapshot(db: Store, now: string, previous?: LiveSnapshot): Promise<LiveSnapshot> {
  // One committed state for the versions and the rows they name.
  return db.reads(async (tx) => {
    const live = await eventVersionsAt(tx, { now, statuses: ['active', 'monitoring'] });
    const changed = live.filter((v) => previous?.get(v.id)?.version !== v.version);
    const fresh = await readLive(tx, new Map(changed.map((v) => [v.id, v.version])), now);
    const out: LiveSnapshot = new Map();
    for (const v of live) {
      const entry = fresh.get(v.id) ?? previous?.get(v.id);
      if (entry) out.set(v.id, entry);
    }
    return out;
  });
}

/** The events `versions` names, rendered with their rings' fingerprints. */
async function readLive(db: Tx, versions: Map<string, string>, now: string): Promise<LiveSnapshot> {
  const out: LiveSnapshot = new Map();
  if (versions.size === 0) return out;
  const ids = [...versions.keys()];
  for (const row of await eventsByIds(db, ids, now)) {
    const feature = eventFeature(row) as EventFeature;
    out.set(row.id, { feature, key: JSON.stringify(feature), rings: [], ringsKey: '', version: versions.get(row.id)! });
    if (out.size % 256 === 0) await nextTurn(); // thousands of events: let the requests around it in
  }
  const rows = await db.all<Omit<RingSummary, keyof Provenance> & { event_id: string; g: string }>(
    `SELECT event_id::VARCHAR AS event_id, kind, label, threshold, unit, radius_km, md5(geojson) AS g
       FROM rings WHERE event_id IN (SELECT unnest($ids::UUID[])) ORDER BY event_id, ordinal`,
    { ids: listValue(ids) },
  );
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  for (const r of rows) {
    const entry = out.get(r.event_id);
    if (!entry) continue;
    // A ring's provenance is its event's, as GET /events/{id}/rings gives it; not in the fingerprint (an event.updated says it).
    entry.rings.push({
      kind: r.kind,
      label: r.label,
      threshold: r.threshold,
      unit: r.unit,
      radius_km: r.radius_km,
      ...provenanceOf(entry.feature.properties),
    });
    let h = hashes.get(r.event_id);
    if (!h) hashes.set(r.event_id, (h = createHash('sha1')));
    h.update(`${r.kind}|${r.label}|${r.threshold}|${r.unit}|${r.radius_km}|${r.g};`);
  }
  for (const [id, h] of hashes) out.get(id)!.ringsKey = h.digest('base64url');
  return out;
}
