/**
 * The in-process ingest schedule (`catintel serve --ingest-every N`), so /health/sources can say when
 * each source is read next. Process state on purpose: the scheduler and the health handler run in the
 * same server process (CLI commands sent to a running server run there too); with no server, cron is
 * the schedule and we cannot know it, so next_run_at is null.
 */
export interface IngestSchedule {
  everySeconds: number;
  /** Wall-clock time (epoch ms) of the next tick. */
  nextRunMs: number;
}

let current: IngestSchedule | null = null;

export function setIngestSchedule(s: IngestSchedule | null): void {
  current = s;
}

export function ingestSchedule(): IngestSchedule | null {
  return current;
}
