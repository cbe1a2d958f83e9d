/**
 * The endpoints the briefing and the ICS-209 are made from (src/reports/sources.ts), bound to the context and
 * the caller: each runs its handler's parse and run, as its endpoint would for that caller.
 */
import type { Context } from '../context.js';
import type { ReportSources, EndpointCall } from '../reports/sources.js';
import { eventsRings, eventsShow } from './events.js';
import { eventsExposure } from './events-exposure.js';
import { eventsPrediction } from './events-prediction.js';
import { eventsTimeline } from './events-timeline.js';
import { infrastructure } from './infrastructure.js';
import type { Caller, Handler } from './types.js';

function bound(h: Handler, ctx: Context, caller: Caller): EndpointCall {
  if (!h.http) throw new Error(`handler ${h.name} has no endpoint`);
  return { handler: h.name, access: h.http.access, call: async (raw) => h.run(ctx, h.parse(raw, caller), caller) };
}

export function reportSources(ctx: Context, caller: Caller): ReportSources {
  return {
    event: bound(eventsShow, ctx, caller),
    rings: bound(eventsRings, ctx, caller),
    exposure: bound(eventsExposure, ctx, caller),
    prediction: bound(eventsPrediction, ctx, caller),
    timeline: bound(eventsTimeline, ctx, caller),
    infrastructure: bound(infrastructure, ctx, caller),
  };
}
