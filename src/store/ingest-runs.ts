/** The record of each ingest run (source, url, times, counts, skip reasons, HTTP validators). */
import type { IngestSummary } from '../ingest/run.js';
import type { Store, Tx } from './db.js';

export async function recordRun(tx: Tx, s: IngestSummary, validators: { etag: string | null; lastModified: string | null }): Promise<void> {
  await tx.run(
    `INSERT INTO ingest_runs (id, source, url, started_at, finished_at, status, fetched, inserted, updated, unchanged, skipped, skipped_reasons, etag, last_modified)
     VALUES (?::UUID, ?, ?, ?::TIMESTAMP, ?::TIMESTAMP, ?, ?, ?, ?, ?, ?, ?::JSON, ?, ?)`,
    [s.run_id, s.source, s.url, s.started_at, s.finished_at, s.status, s.fetched, s.inserted, s.updated, s.unchanged, s.skipped,
      JSON.stringify(s.skipped_reasons), validators.etag, validators.lastModified],
  );
}

/** A failed run is recorded after the rollback, in its own small transaction. */
export async function recordFailedRun(db: Store, run: { id: string; source: string; url: string; startedAt: string; finishedAt: string; error: string }): Promise<void> {
  await db.run(
    `INSERT INTO ingest_runs (id, source, url, started_at, finished_at, status, error) VALUES (?::UUID, ?, ?, ?::TIMESTAMP, ?::TIMESTAMP, 'failed', ?)`,
    [run.id, run.source, run.url, run.startedAt, run.finishedAt, run.error],
  );
}

export async function lastFetchValidators(db: Store, source: string, url: string): Promise<{ etag: string | null; lastModified: string | null } | null> {
  const row = await db.one<{ etag: string | null; last_modified: string | null }>(
    `SELECT etag, last_modified FROM ingest_runs WHERE source = ? AND url = ? AND status IN ('ok', 'not_modified')
      AND (etag IS NOT NULL OR last_modified IS NOT NULL) ORDER BY started_at DESC LIMIT 1`,
    [source, url],
  );
  return row ? { etag: row.etag, lastModified: row.last_modified } : null;
}
