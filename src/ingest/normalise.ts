/**
 * From a source's SourceRecord to the rows the store keeps: stable id, content hash (so re-ingesting
 * the same feed changes nothing), lifecycle instants and rings. Pure apart from hashing.
 */
import { createHash } from 'node:crypto';
import type { SourceRecord } from '../domain/event.js';
import { EVENT_TYPES } from '../domain/event.js';
import { lifecycleOf } from '../domain/lifecycle.js';
import { buildRings, type RingOptions } from '../domain/rings/index.js';
import type { PreparedEvent } from '../domain/prepared-event.js';
import { eventIdOf } from '../lib/ids.js';
import { publishedAfterClock } from '../sources/as-of.js';

/** Returns the reason a record cannot be stored, or null when it is sound. */
export function problemWith(r: SourceRecord): string | null {
  if (!r.sourceId) return 'missing source id';
  if (!Number.isFinite(r.lat) || r.lat < -90 || r.lat > 90) return `latitude out of range (${r.lat})`;
  if (!Number.isFinite(r.lng) || r.lng < -180 || r.lng > 180) return `longitude out of range (${r.lng})`;
  if (!Number.isFinite(r.severity)) return `severity is not a number (${r.severity})`;
  if (Number.isNaN(Date.parse(r.startedAt))) return `start time is not a timestamp (${r.startedAt})`;
  if (Number.isNaN(Date.parse(r.sourceUpdatedAt))) return `update time is not a timestamp (${r.sourceUpdatedAt})`;
  if (!(EVENT_TYPES as readonly string[]).includes(r.eventType)) return `unknown event type (${r.eventType})`;
  return null;
}

/**
 * As of the clock (src/sources/as-of.ts): a record the source published after `now` (its own update
 * time) is not known yet. The start time is not the test: an NWS alert published now may start tomorrow.
 */
export function notPublishedBy(r: SourceRecord, now: Date): string | null {
  return Date.parse(r.sourceUpdatedAt) > now.getTime() ? publishedAfterClock(now) : null;
}

export function prepareEvent(record: SourceRecord, ringOptions: RingOptions = {}): PreparedEvent {
  const id = eventIdOf(record.source, record.sourceId);
  // A ShakeMap's PGA grid is kept apart (src/store/shakemap-grids.ts); its version is in ringInput, hashed.
  const { shakemapGrid: _grid, ...hashed } = record;
  void _grid;
  const contentHash = createHash('sha1').update(JSON.stringify(hashed)).digest('hex');
  return {
    id,
    record,
    contentHash,
    lifecycle: lifecycleOf(record),
    rings: buildRings(record.ringInput, { lat: record.lat, lng: record.lng }, ringOptions),
    trackRings: (record.track ?? []).map((p) => ({
      at: p.at,
      rings: buildRings(p.ringInput, { lat: p.lat, lng: p.lng }, ringOptions),
    })),
  };
}

/** A feed may carry the same record twice (paged or merged feeds): keep the newest version of each. */
export function newestPerSourceId(records: SourceRecord[]): SourceRecord[] {
  const byId = new Map<string, SourceRecord>();
  for (const r of records) {
    const seen = byId.get(r.sourceId);
    if (!seen || Date.parse(r.sourceUpdatedAt) >= Date.parse(seen.sourceUpdatedAt)) byId.set(r.sourceId, r);
  }
  return [...byId.values()];
}
