/**
 * `{id}` of every event endpoint (docs/contract.md#events): our UUID, the slug, or the source's own id. An unknown id
 * is 404; a source id that two sources share is 409 naming the candidates, so the caller can pick one by
 * its UUID or slug.
 */
import type { Context } from '../context.js';
import { CatintelError } from '../errors.js';
import type { EventRow } from '../store/events-read.js';
import { oneEvent } from '../store/event-reader.js';
import { required } from './params.js';

export async function requireEvent(ctx: Context, id: string): Promise<EventRow> {
  return oneEvent(ctx.db, id, ctx.clock().toISOString());
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
