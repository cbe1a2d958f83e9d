/**
 * GET /events/stream: server-sent events of the live set's changes (docs/stream.md), with the filters of
 * /events/live. The HTTP layer answers it with a long-lived stream (src/stream/sse.ts) instead of calling
 * run(); `catintel events watch` (src/cli/events-watch.ts) prints the same stream from a running server.
 */
import { EVENT_TYPES } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import type { StreamFilter } from '../stream/filter.js';
import { bbox, isoTime, list } from './params.js';
import { defineHandler } from './types.js';

const LIVE_STATUSES = ['active', 'monitoring'] as const;

export function parseStreamFilter(raw: Record<string, unknown>): StreamFilter {
  return {
    eventTypes: list(raw, 'event_type', EVENT_TYPES),
    statuses: list(raw, 'status', LIVE_STATUSES) ?? [...LIVE_STATUSES],
    bbox: bbox(raw),
    since: isoTime(raw, 'since'),
  };
}

export const eventsStream = defineHandler<StreamFilter, never>({
  name: 'events.stream',
  summary: 'Server-sent events: live events as they are created, updated and ended, and their ring changes',
  http: { method: 'GET', path: '/events/stream', access: 'free', stream: true },
  parse: (raw) => parseStreamFilter(raw),
  run() {
    // The route is a stream: src/http/pipeline.ts never calls run() for it.
    return Promise.reject(
      new CatintelError(
        'internal_error',
        'events.stream is served as a stream by the HTTP layer, not run as a handler',
      ),
    );
  },
});
