/**
 * GET /events/{id}/timeline and `catintel events timeline ID` (docs/contract.md#access: agency): the event's
 * status arc from its stored observations and lifecycle, oldest first, each point with its source and time
 * (src/intelligence/domain/timeline.ts, docs/intelligence.md "Timeline").
 */
import { timelineOf } from '../intelligence/domain/timeline.js';
import { detailsOf, eventRef } from '../intelligence/event-ref.js';
import { observationsAsOf } from '../intelligence/observations.js';
import { eventIdParam, requireEvent } from './event-lookup.js';
import { defineHandler } from './types.js';

export const eventsTimeline = defineHandler({
  name: 'events.timeline',
  summary:
    'Status arc of an event: containment, wind and pressure by fix, gauge readings, magnitude revisions, status changes',
  http: { method: 'GET', path: '/events/{id}/timeline', access: 'agency' },
  cli: {
    command: ['events', 'timeline'],
    args: ['id'],
    examples: ['catintel events timeline AL092022', 'catintel events timeline nc216859 --json'],
  },
  parse: (raw) => ({ id: eventIdParam(raw) }),
  async run(ctx, { id }) {
    const now = ctx.clock().toISOString();
    const row = await requireEvent(ctx, id);
    const obs = await observationsAsOf(ctx.db, row.id, now);
    const points = timelineOf(
      {
        event_type: row.event_type,
        started_at: row.started_at,
        updated_at: row.updated_at,
        monitoring_from: row.monitoring_from,
        ended_at: row.ended_at,
        details: detailsOf(row),
      },
      obs,
      now,
    ).map((p) => ({
      ...p,
      // A status change is read from the event record itself: it carries the record's provenance.
      ingested_at: 'ingested_at' in p ? p.ingested_at : row.ingested_at,
      source: row.source,
      source_url: row.source_url,
    }));
    const kinds = [...new Set(points.filter((p) => p.kind !== 'status').map((p) => p.kind))].sort();
    const summary = kinds.map((k) => {
      const xs = points.filter((p): p is Extract<typeof p, { value: number }> => p.kind === k && 'value' in p);
      const values = xs.map((x) => x.value);
      return {
        kind: k,
        unit: xs[0].unit,
        count: xs.length,
        first: { at: xs[0].at, value: xs[0].value },
        latest: { at: xs[xs.length - 1].at, value: xs[xs.length - 1].value },
        min: Math.min(...values),
        max: Math.max(...values),
      };
    });
    return {
      body: {
        event: eventRef(row),
        as_of: now,
        count: points.length,
        summary,
        points,
        method:
          'stored observations of the event (one per kind and time, as the source reported them) and its lifecycle instants (docs/lifecycle.md); change = the difference from the previous point of the same kind',
      },
    };
  },
});
