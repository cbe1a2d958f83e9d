/**
 * GET /events/{id}/prediction and `catintel events prediction ID` (docs/contract.md#access: free): an
 * indicative severity forecast for the event's peril, method named and cited, uncertainty stated, valid_at
 * (src/intelligence/prediction.ts, docs/intelligence.md).
 */
import { countyAt, loadCounties } from '../intelligence/counties.js';
import { predictionOf } from '../intelligence/prediction.js';
import { observationsOf } from '../store/events-read.js';
import { eventIdParam, requireEvent } from './event-lookup.js';
import { defineHandler } from './types.js';

export const eventsPrediction = defineHandler({
  name: 'events.prediction',
  summary: 'Indicative severity forecast of an event: aftershock probabilities, inland decay, fire growth, gauge trend',
  http: { method: 'GET', path: '/events/{id}/prediction', access: 'free' },
  cli: {
    command: ['events', 'prediction'],
    args: ['id'],
    examples: ['catintel events prediction nc216859', 'catintel events prediction AL092022 --json'],
  },
  parse: (raw) => ({ id: eventIdParam(raw) }),
  async run(ctx, { id }) {
    const row = await requireEvent(ctx, id);
    const obs = await observationsOf(ctx.db, row.id);
    const validAt = ctx.clock().toISOString();
    const isLand = (lat: number, lng: number) => countyAt(loadCounties(), lat, lng) !== undefined;
    return { body: predictionOf(row, obs, validAt, isLand) };
  },
});
