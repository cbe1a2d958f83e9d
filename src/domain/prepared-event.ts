/**
 * An event ready for the store: what ingest makes of a source's record (src/ingest/normalise.ts) and what
 * the store writes (src/store/events-write.ts). Here so both can name it without importing each other.
 */
import type { Ring, SourceRecord } from './event.js';
import type { Lifecycle } from './lifecycle.js';

export interface PreparedEvent {
  id: string;
  record: SourceRecord;
  contentHash: string;
  lifecycle: Lifecycle;
  rings: Ring[];
  /** The wind rings of each earlier part of the track (record.track), oldest first: the swath's history. */
  trackRings: Array<{ at: string; rings: Ring[] }>;
}
