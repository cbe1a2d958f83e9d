/**
 * The endpoints a report is made from, each run the way its endpoint would run for the caller. The report
 * handlers build this object from the endpoint handlers themselves (src/handlers/report-sources.ts) and pass
 * it in, so the reports never import a handler (the handlers import the reports).
 */
import type { Tier } from '../caller.js';

/** One endpoint bound to the caller and the context: its answer to a raw input, as the endpoint gives it. */
export interface EndpointCall {
  /** The handler's name (events.exposure ...), kept in the section a report shows. */
  handler: string;
  /** The lowest tier that may call the endpoint: a caller below it gets a section saying so. */
  access: Tier;
  /** The handler's parse and run on the raw input; the body may be bytes (the live index answers in bytes). */
  call(raw: Record<string, unknown>): Promise<{ status?: number; body: unknown }>;
}

export interface ReportSources {
  /** GET /events/{id}: the event; its errors (404, 409) are the report's. */
  event: EndpointCall;
  /** GET /events/{id}/rings: the rings; required like the event. */
  rings: EndpointCall;
  /** GET /events/{id}/exposure */
  exposure: EndpointCall;
  /** GET /events/{id}/prediction */
  prediction: EndpointCall;
  /** GET /events/{id}/timeline */
  timeline: EndpointCall;
  /** GET /infrastructure: hospitals for the map. */
  infrastructure: EndpointCall;
}
