/** Human output for the terminal; `--json` prints the handler's JSON unchanged instead. */
import type { Collection } from '../domain/features.js';

export function renderHuman(name: string, body: unknown): string {
  if (isCollection(body) && name.startsWith('events.') && name !== 'events.rings') return eventsTable(body);
  if (name === 'ingest' || name === 'db.seed') return ingestLines(body as { runs: IngestRun[] });
  return JSON.stringify(body, null, 2) + '\n';
}

function isCollection(b: unknown): b is Collection<{ properties: Record<string, unknown> }> {
  return typeof b === 'object' && b !== null && (b as { type?: string }).type === 'FeatureCollection';
}

function eventsTable(c: Collection<{ properties: Record<string, unknown> }>): string {
  const rows = c.features.map((f) => {
    const p = f.properties;
    const dist = p.distance_km === undefined ? '' : `${p.distance_km} km  `;
    return `${String(p.started_at).slice(0, 16)}  ${String(p.status).padEnd(10)} ${String(p.event_type).padEnd(12)} ${String(p.severity_label).padEnd(10)} ${dist}${p.title}\n    ${p.id}`;
  });
  const next = c.links.find((l) => l.rel === 'next');
  const foot = `${c.numberReturned} of ${c.numberMatched} events${next ? ` (more: --cursor ${new URL(next.href, 'http://x').searchParams.get('cursor')})` : ''}`;
  return [...rows, foot].join('\n') + '\n';
}

interface IngestRun { source: string; status: string; fetched: number; inserted: number; updated: number; unchanged: number; skipped: number; skipped_reasons: { reason: string; count: number }[] }

function ingestLines(b: { runs: IngestRun[] }): string {
  return b.runs
    .map((r) => {
      const head = r.status === 'not_modified'
        ? `${r.source}: not modified since the last run`
        : `${r.source}: ${r.fetched} read, ${r.inserted} new, ${r.updated} updated, ${r.unchanged} unchanged, ${r.skipped} skipped`;
      return [head, ...r.skipped_reasons.map((s) => `  skipped ${s.count}: ${s.reason}`)].join('\n');
    })
    .join('\n') + '\n';
}
