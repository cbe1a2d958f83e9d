/**
 * The filters of /events/live applied to stream messages (event_type, status, bbox, since), on the
 * event each message is about. An `event.ended` passes the status filter: a client following the active
 * events must hear that one is over.
 */
import type { Change, EventFeature } from './messages.js';

export interface StreamFilter {
  eventTypes?: string[];
  statuses: string[];
  bbox?: [number, number, number, number];
  since?: string;
}

export function matches(f: StreamFilter, c: Pick<Change, 'body' | 'subject'>): boolean {
  if (!c.subject) return true;
  const e: EventFeature = c.subject;
  const p = e.properties;
  if (f.eventTypes && !f.eventTypes.includes(p.event_type)) return false;
  if (c.body.type !== 'event.ended' && !f.statuses.includes(p.status)) return false;
  if (f.since && Date.parse(p.updated_at) < Date.parse(f.since)) return false;
  if (f.bbox) {
    const [lng, lat] = e.geometry.coordinates;
    const [minLng, minLat, maxLng, maxLat] = f.bbox;
    if (lat < minLat || lat > maxLat) return false;
    // minLng > maxLng crosses the antimeridian, as in /events/live.
    if (minLng <= maxLng ? lng < minLng || lng > maxLng : lng < minLng && lng > maxLng) return false;
  }
  return true;
}
