/** An event's stored observations with the time this store recorded each (for the timeline's provenance). */
import type { Store } from '../store/db.js';

export interface TimedObservation {
  kind: string;
  observed_at: string;
  value: number;
  unit: string;
  lat: number | null;
  lng: number | null;
  ingested_at: string;
}

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;

/** Observations taken at or before now, oldest first (kind breaks ties, so the order is total). */
export async function observationsAsOf(db: Store, eventId: string, now: string): Promise<TimedObservation[]> {
  return db.all<TimedObservation>(
    `SELECT kind, ${iso('observed_at')} AS observed_at, value, unit, lat, lng, ${iso('ingested_at')} AS ingested_at
       FROM observations WHERE event_id = $id::UUID AND observed_at <= $now::TIMESTAMP ORDER BY observed_at, kind`,
    { id: eventId, now },
  );
}
