/** The store as text: `db info`, and the per-source lines of `ingest` and `db seed`. */
import { keyValues, table } from './text.js';

interface IngestRun {
  source: string;
  status: string;
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skipped: number;
  skipped_reasons: { reason: string; count: number }[];
  notes?: string[];
  error?: string;
  code?: string;
}

export function ingestLines(b: { runs: IngestRun[]; as_of?: string | null }): string {
  const lines = b.runs.flatMap((r) => {
    if (r.status === 'failed') return [`${r.source}: FAILED, ${r.error} [${r.code}]`];
    const head =
      r.status === 'not_modified'
        ? `${r.source}: not modified since the last run`
        : `${r.source}: ${r.fetched} read, ${r.inserted} new, ${r.updated} updated, ${r.unchanged} unchanged, ${r.skipped} skipped`;
    return [
      head,
      ...r.skipped_reasons.map((s) => `  skipped ${s.count}: ${s.reason}`),
      ...(r.notes ?? []).map((n) => `  note: ${n}`),
    ];
  });
  // db seed: its events are live at the snapshot's instant, not today (a plain `events live` shows none).
  if (b.as_of)
    lines.push(`The snapshot is as of ${b.as_of}; see its live events with: catintel --as-of ${b.as_of} events live`);
  return lines.join('\n') + '\n';
}

interface DbInfo {
  path: string;
  events_by_type: Record<string, number>;
  recent_ingest_runs: Record<string, unknown>[];
  [k: string]: unknown;
}

export function dbInfoText(b: DbInfo): string {
  const { events_by_type, recent_ingest_runs, ...rest } = b;
  const lines = keyValues(rest, 0, ['path', 'schema_version', 'events', 'live_events']);
  const types = Object.entries(events_by_type ?? {});
  if (types.length)
    lines.push('events by type:', ...table(['type', 'events'], types, ['left', 'right']).map((l) => `  ${l}`));
  const runs = recent_ingest_runs ?? [];
  if (runs.length) {
    lines.push('recent ingest runs:');
    const rows = runs.map(
      (r) => [r.started_at, r.source, r.status, r.inserted, r.updated, r.unchanged, r.skipped] as (string | number)[],
    );
    lines.push(
      ...table(['started (UTC)', 'source', 'status', 'new', 'updated', 'unchanged', 'skipped'], rows, [
        'left',
        'left',
        'left',
        'right',
        'right',
        'right',
        'right',
      ]).map((l) => `  ${l}`),
    );
  } else {
    lines.push('recent ingest runs: none (load data with `catintel db seed` or `catintel ingest`)');
  }
  return lines.join('\n') + '\n';
}

interface DbCheck {
  path: string;
  status: string;
  size: string | null;
  blocks: number | null;
  tables: { table: string; rows: number }[];
}

/** `db check`: a sound store (a corrupt one is an error, exit 5). */
export function dbCheckText(b: DbCheck): string {
  const rows = b.tables.reduce((n, t) => n + t.rows, 0);
  return `store ${b.path}: ok, every block of ${b.tables.length} tables read (${rows} rows, ${b.size ?? 'unknown size'})\n`;
}
