/**
 * Which answers have an Arrow form, and how to make it: the event collections (live, nearby, an event's
 * rings), the EP curve and portfolio exposure. HTTP sends it to a client whose Accept asks for
 * `application/vnd.apache.arrow.stream` (src/http/accept-arrow.ts); the CLI writes it with
 * `--format arrow --out FILE`. undefined when the body is not the JSON answer (a CSV or ORD table the
 * caller asked for by `format`): that answer goes out as it is.
 */
import type { Table } from 'apache-arrow';
import type { EventColumns } from '../domain/event-columns.js';
import { eventTable, eventTableOf, type EventPage } from './event-table.js';
import { epCurveTable, isEpCurveAnswer } from './ep-curve-table.js';
import { exposureTable, isExposureAnswer } from './exposure-table.js';

const eventPageOf = (body: unknown): EventPage =>
  (Buffer.isBuffer(body) ? JSON.parse(body.toString('utf8')) : body) as EventPage;

/** An event page: from its columns when the live index has them ready, else from its JSON. */
const eventPageTable = (b: unknown, columns?: () => EventColumns) =>
  columns ? eventTableOf(columns()) : eventTable(eventPageOf(b));

const TABLES: Record<string, (body: unknown, columns?: () => EventColumns) => Table | undefined> = {
  'events.live': eventPageTable,
  'events.nearby': eventPageTable,
  'events.rings': (b) => eventTable(eventPageOf(b)),
  'portfolio.ep_curve': (b) => (isEpCurveAnswer(b) ? epCurveTable(b) : undefined),
  'portfolio.exposure': (b) => (isExposureAnswer(b) ? exposureTable(b) : undefined),
};

/** The handlers whose answers have an Arrow form. */
export const ARROW_HANDLERS = new Set(Object.keys(TABLES));

/** `columns`: the answer as columns, when the handler has them (HandlerResult.columns). */
export function answerTable(handler: string, body: unknown, columns?: () => EventColumns): Table | undefined {
  return TABLES[handler]?.(body, columns);
}
