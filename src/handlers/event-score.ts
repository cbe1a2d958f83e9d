/**
 * GET /events/{id}/score and `catintel events score ID`: the hazard scores at an event's location (its
 * epicentre, storm position, fire origin or gauge), with the same tier rules as /risk/score (docs/contract.md#scores):
 * free tier one peril (omitted: the one with the highest expected annual damage ratio, and peril_selection
 * says why), format=oasis for enterprise only. The body is the /risk/score body with the event named; an
 * event outside the covered area is 422, not a made-up score.
 */
import { CatintelError } from '../errors.js';
import type { OasisPointBody } from '../oed/point.js';
import { eventIdParam, requireEvent } from './event-lookup.js';
import { SCORE_OPTIONS, parseScoreOptions, scoreAt, type ScoreOptions, type ScorePointBody } from './score-point.js';
import { defineHandler } from './types.js';

export interface EventScoreInput extends ScoreOptions {
  id: string;
}

export interface EventRef {
  id: string;
  slug: string;
  title: string;
  event_type: string;
  status: string;
  lat: number;
  lng: number;
}

export type EventScoreBody = (ScorePointBody | OasisPointBody) & { event: EventRef };

export const eventScore = defineHandler<EventScoreInput, EventScoreBody>({
  name: 'events.score',
  summary: "Hazard scores (0.00-10.00) at an event's location, per peril, with score_components",
  http: {
    method: 'GET',
    path: '/events/{id}/score',
    access: 'free',
    accessByQuery: { format: { oasis: 'enterprise' } },
  },
  cli: {
    command: ['events', 'score'],
    args: ['id'],
    options: [
      ...SCORE_OPTIONS,
      { flags: '--format <format>', description: 'json (default) or oasis (OED location row + keys rows)' },
    ],
    examples: [
      'catintel events score <id-or-slug>',
      'catintel events score <id> --perils earthquake --scenario ssp585 --horizon 2080 --json',
    ],
  },
  parse(raw, caller) {
    return { id: eventIdParam(raw), ...parseScoreOptions(raw, caller) };
  },
  async run(ctx, input) {
    const row = await requireEvent(ctx, input.id);
    const event: EventRef = {
      id: row.id,
      slug: row.slug,
      title: row.title,
      event_type: row.event_type,
      status: row.status,
      lat: row.lat,
      lng: row.lng,
    };
    const refuse = (reason: string) =>
      new CatintelError('validation_failed', `event ${row.slug} (${row.title}): ${reason}`, {
        errors: [{ field: 'id', message: reason }],
      });
    const result = scoreAt(row.lat, row.lng, input, { accNumber: row.id }, refuse, ctx.config?.env);
    return { body: { event, ...result.body } };
  },
});
