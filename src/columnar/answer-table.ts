/**
 * Which answers have an Arrow form, and how to make it: the event collections (live, nearby, an event's
 * rings), the EP curve and portfolio exposure. HTTP sends it to a client whose Accept asks for
 * `application/vnd.apache.arrow.stream` (src/http/accept-arrow.ts); the CLI writes it with
 * `--format arrow --out FILE`. undefined when the body is not the JSON answer (a CSV or ORD table the
 * caller asked for by `format`): that answer goes out as it is.
 */
import type { Table } from 'apache-arrow';
import { eventTable, type EventPage } from './event-table.js';
import { epCurveTable, isEpCurveAnswer } from './ep-curve-table.js';
import { exposureTable, isExposureAnswer } from './exposure-table.js';

const eventPageOf = (body: unknown): EventPage =>
  (Buffer.isBuffer(body) ? JSON.parse(body.toString('utf8')) : body) as EventPage;

const TABLES: Record<string, (body: unknown) => Table | undefined> = {
  'events.live': (b) => eventTable(eventPageOf(b)),
  'events.nearby': (b) => eventTable(eventPageOf(b)),
  'events.rings': (b) => eventTable(eventPageOf(b)),
  'portfolio.ep_curve': (b) => (isEpCurveAnswer(b) ? epCurveTable(b) : undefined),
  'portfolio.exposure': (b) => (isExposureAnswer(b) ? exposureTable(b) : undefined),
};

/** The handlers whose answers have an Arrow form. */
export const ARROW_HANDLERS = new Set(Object.keys(TABLES));

export function answerTable(handler: string, body: unknown): Table | undefined {
  return TABLES[handler]?.(body);
}
