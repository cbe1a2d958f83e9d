/**
 * `{id}` of every event endpoint (docs/contract.md#events): our UUID, the slug, or the source's own id. An unknown id
 * is 404; a source id that two sources share is 409 naming the candidates, so the caller can pick one by
 * its UUID or slug.
 */
import type { Context } from '../context.js';
import { CatintelError } from '../errors.js';
import { findEvents, type EventRow } from '../store/events-read.js';
import { required } from './params.js';

export async function requireEvent(ctx: Context, id: string): Promise<EventRow> {
  const rows = await findEvents(ctx.db, id, ctx.clock().toISOString());
  if (rows.length === 1) return rows[0];
  if (rows.length === 0) {
    throw new CatintelError(
      'not_found',
      `no event with id, slug or source id "${id}"; list events with /events/live (CLI: catintel events live)`,
    );
  }
  const candidates = rows.map((r) => `${r.slug} (${r.source} ${r.source_id}: ${r.title})`);
  throw new CatintelError(
    'conflict',
    `"${id}" names ${rows.length} events; ask for one by its slug or UUID: ${candidates.join('; ')}`,
    {
      errors: rows.map((r) => ({ field: 'id', message: `${r.id} ${r.slug} (${r.source})` })),
    },
  );
}

/** The `id` path parameter, bounded so that a pasted document is refused before any query. */
export function eventIdParam(raw: Record<string, unknown>): string {
  const id = required(raw, 'id');
  if (id.length > 200)
    throw new CatintelError('invalid_parameter', 'id: too long to be an event id, slug or source id', {
      errors: [{ field: 'id', message: 'at most 200 characters' }],
    });
  return id;
}
