/** The record of each ingest run (source, url, times, counts, skip reasons, HTTP validators). */
import type { Store, Tx } from './db.js';

export interface SkipTally {
  reason: string;
  count: number;
  examples: string[];
}

/** What one ingest run did (src/ingest/run.ts): the row this module records and `catintel ingest` prints. */
export interface IngestSummary {
  run_id: string;
  source: string;
  url: string;
  status: 'ok' | 'not_modified';
  started_at: string;
  finished_at: string;
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  skipped_reasons: SkipTally[];
  /** What went wrong without costing a record (a ShakeMap grid.xml not read); in the answer only, not in ingest_runs. */
  notes?: string[];
}

export async function recordRun(
  tx: Tx,
  s: IngestSummary,
  validators: { etag: string | null; lastModified: string | null },
): Promise<void> {
  await tx.run(
    `INSERT INTO ingest_runs (id, source, url, started_at, finished_at, status, fetched, inserted, updated, unchanged, skipped, skipped_reasons, etag, last_modified)
     VALUES (?::UUID, ?, ?, ?::TIMESTAMP, ?::TIMESTAMP, ?, ?, ?, ?, ?, ?, ?::JSON, ?, ?)`,
    [
      s.run_id,
      s.source,
      s.url,
      s.started_at,
      s.finished_at,
      s.status,
      s.fetched,
      s.inserted,
      s.updated,
      s.unchanged,
      s.skipped,
      JSON.stringify(s.skipped_reasons),
      validators.etag,
      validators.lastModified,
    ],
  );
}

/** A failed run is recorded after the rollback, in its own small transaction. */
export async function recordFailedRun(
  db: Store,
  run: { id: string; source: string; url: string; startedAt: string; finishedAt: string; error: string },
): Promise<void> {
  await db.run(
    `INSERT INTO ingest_runs (id, source, url, started_at, finished_at, status, error) VALUES (?::UUID, ?, ?, ?::TIMESTAMP, ?::TIMESTAMP, 'failed', ?)`,
    [run.id, run.source, run.url, run.startedAt, run.finishedAt, run.error],
  );
}

export async function lastFetchValidators(
  db: Store,
  source: string,
  url: string,
): Promise<{ etag: string | null; lastModified: string | null } | null> {
  const row = await db.one<{ etag: string | null; last_modified: string | null }>(
    `SELECT etag, last_modified FROM ingest_runs WHERE source = ? AND url = ? AND status IN ('ok', 'not_modified')
      AND (etag IS NOT NULL OR last_modified IS NOT NULL) ORDER BY started_at DESC LIMIT 1`,
    [source, url],
  );
  return row ? { etag: row.etag, lastModified: row.last_modified } : null;
}

/** Per source, what /health/sources reports (runs started after `now` are not seen: reads are as of the clock). */
export interface SourceRunHealth {
  source: string;
  last_success_ms: number | null;
  records: number | null;
  last_run_ms: number | null;
  last_status: string | null;
  last_error_ms: number | null;
  last_error: string | null;
  failures_since_success: number;
}

export async function sourceRunHealth(db: Store, nowIso: string): Promise<SourceRunHealth[]> {
  // A not_modified run is a success: the source answered and our copy is its current state.
  const rows = await db.all<Record<string, unknown>>(
    `WITH r AS (SELECT * FROM ingest_runs WHERE started_at <= $now::TIMESTAMP),
          g AS (SELECT source, max(started_at) FILTER (WHERE status <> 'failed') AS ok_started FROM r GROUP BY source)
     SELECT r.source,
            epoch_ms(max(r.finished_at) FILTER (WHERE r.status <> 'failed')) AS last_success_ms,
            arg_max(r.fetched, r.started_at) FILTER (WHERE r.status = 'ok') AS records,
            epoch_ms(max(r.started_at)) AS last_run_ms,
            arg_max(r.status, r.started_at) AS last_status,
            epoch_ms(max(r.finished_at) FILTER (WHERE r.status = 'failed')) AS last_error_ms,
            arg_max(r.error, r.started_at) FILTER (WHERE r.status = 'failed') AS last_error,
            count(*) FILTER (WHERE r.status = 'failed' AND (g.ok_started IS NULL OR r.started_at > g.ok_started)) AS failures_since_success
       FROM r JOIN g USING (source) GROUP BY r.source`,
    { now: nowIso },
  );
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return rows.map((r) => ({
    source: String(r.source),
    last_success_ms: num(r.last_success_ms),
    records: num(r.records),
    last_run_ms: num(r.last_run_ms),
    last_status: (r.last_status as string | null) ?? null,
    last_error_ms: num(r.last_error_ms),
    last_error: (r.last_error as string | null) ?? null,
    failures_since_success: Number(r.failures_since_success ?? 0),
  }));
}

/** Source -> the end of its newest successful run (epoch ms) started by `now`: X-Data-Freshness. */
export async function newestSuccessBySource(db: Store, nowIso: string): Promise<Map<string, number>> {
  const rows = await db.all<{ source: string; ms: bigint | number }>(
    `SELECT source, epoch_ms(max(finished_at)) AS ms FROM ingest_runs
      WHERE status <> 'failed' AND started_at <= $now::TIMESTAMP AND finished_at IS NOT NULL GROUP BY source`,
    { now: nowIso },
  );
  return new Map(rows.map((r) => [r.source, Number(r.ms)]));
}
