/**
 * Saved locations against the live rings (`locations exposure`, GET /locations/exposure) as an Arrow
 * table: one row per ring of each live event that reaches a saved location now (the JSON's
 * `locations[].events[].rings[]`), the location's fields, then the event's, then the ring's, with the
 * JSON's names (the location's prefixed `location_`, as its radius_km and the ring's would clash):
 * location_id, location_name, location_lat, location_lng, location_radius_km; event_id ... ingested_at as
 * in portfolio exposure; ring_id, ordinal (int64), kind, label, threshold, unit, radius_km, distance_km
 * (the location's distance to the ring, 0 inside) and inside (bool). The swath so far stays in the JSON;
 * the answer's own fields (as_of, count, reached, reached_so_far) are the schema's metadata.
 */
import type { Table } from 'apache-arrow';
import { EXPOSURE_EVENT_COLUMNS } from './exposure-table.js';
import { recordTable, type RecordColumn } from './record-table.js';
import { RING_FIELD_COLUMNS } from './ring-columns.js';

export const LOCATION_COLUMNS: RecordColumn[] = [
  { name: 'location_id', kind: 'text' },
  { name: 'location_name', kind: 'text' },
  { name: 'location_lat', kind: 'float' },
  { name: 'location_lng', kind: 'float' },
  { name: 'location_radius_km', kind: 'float' },
];

export const LOCATION_RING_COLUMNS: RecordColumn[] = [
  ...RING_FIELD_COLUMNS,
  { name: 'distance_km', kind: 'float' },
  { name: 'inside', kind: 'bool' },
];

/** The fields of the JSON answer the table is made from (src/handlers/locations.ts, src/locations/exposure.ts). */
export interface LocationsExposureAnswer {
  as_of: string;
  count: number;
  reached: number;
  reached_so_far: number;
  locations: {
    location: { id: string; name: string; lat: number; lng: number; radius_km: number };
    events: (Record<string, unknown> & { rings: Record<string, unknown>[] })[];
  }[];
}

export function isLocationsExposureAnswer(body: unknown): body is LocationsExposureAnswer {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Buffer.isBuffer(body) &&
    Array.isArray((body as LocationsExposureAnswer).locations)
  );
}

export function locationsExposureTable(body: LocationsExposureAnswer): Table {
  const rows: Record<string, unknown>[] = [];
  for (const { location: l, events } of body.locations) {
    const location = {
      location_id: l.id,
      location_name: l.name,
      location_lat: l.lat,
      location_lng: l.lng,
      location_radius_km: l.radius_km,
    };
    for (const e of events) {
      const event = Object.fromEntries(EXPOSURE_EVENT_COLUMNS.map((c) => [c.name, e[c.name]]));
      for (const ring of e.rings) rows.push({ ...location, ...event, ...ring });
    }
  }
  return recordTable([...LOCATION_COLUMNS, ...EXPOSURE_EVENT_COLUMNS, ...LOCATION_RING_COLUMNS], rows, null, {
    as_of: body.as_of,
    count: body.count,
    reached: body.reached,
    reached_so_far: body.reached_so_far,
  });
}
