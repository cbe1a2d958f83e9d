/** The event as the intelligence bodies name it: enough to stand alone in a report (who, what, where, from which source, when read). */
import type { EventRow } from '../store/events-read.js';
import { eventDetails } from '../domain/event-details.js';

/** The event row's own fields, as the store reads them (EventRow), in the order the body lists them. */
export type EventRefBody = Pick<
  EventRow,
  | 'id'
  | 'slug'
  | 'title'
  | 'event_type'
  | 'status'
  | 'severity'
  | 'severity_label'
  | 'lat'
  | 'lng'
  | 'started_at'
  | 'updated_at'
  | 'source'
  | 'source_id'
  | 'source_url'
  | 'ingested_at'
>;

export function eventRef(row: EventRow): EventRefBody {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    event_type: row.event_type,
    status: row.status,
    severity: row.severity,
    severity_label: row.severity_label,
    lat: row.lat,
    lng: row.lng,
    started_at: row.started_at,
    updated_at: row.updated_at,
    source: row.source,
    source_id: row.source_id,
    source_url: row.source_url,
    ingested_at: row.ingested_at,
  };
}

export interface SourceRef {
  name: string;
  url: string;
  ingested_at: string | null;
  role: string;
}

/** The event's own feed record as a source entry. */
export function eventSource(row: EventRow, role: string): SourceRef {
  return { name: row.source, url: row.source_url, ingested_at: row.ingested_at, role };
}

export function detailsOf(row: EventRow): Record<string, unknown> {
  return eventDetails(row.details);
}

export const DISCLAIMER = 'Indicative only: for situational awareness, not for emergency response decisions.';
