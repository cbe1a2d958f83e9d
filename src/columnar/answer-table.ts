/**
 * Which answers have an Arrow form, and how to make it: the event collections (live, nearby, an event's
 * rings, the OGC collections' items), the EP curve, portfolio exposure, saved locations' exposure, an
 * event's exposure and a portfolio's loss from a live event. HTTP sends it to a client whose Accept asks for
 * `application/vnd.apache.arrow.stream` (src/http/accept-arrow.ts); the CLI writes it with
 * `--format arrow --out FILE`. undefined when the body is not the JSON answer (a CSV or ORD table the
 * caller asked for by `format`): that answer goes out as it is.
 */
import type { Table } from 'apache-arrow';
import type { EventColumns } from '../domain/event-columns.js';
import { eventTable, eventTableOf, type EventPage } from './event-table.js';
import { epCurveTable, isEpCurveAnswer } from './ep-curve-table.js';
import { exposureTable, isExposureAnswer } from './exposure-table.js';
import { eventExposureTable, isEventExposureAnswer } from './event-exposure-table.js';
import { eventLossTable, isEventLossAnswer } from './event-loss-table.js';
import { isLocationsExposureAnswer, locationsExposureTable } from './locations-exposure-table.js';

const eventPageOf = (body: unknown): EventPage =>
  (Buffer.isBuffer(body) ? JSON.parse(body.toString('utf8')) : body) as EventPage;

/** An OGC items page of the `rings` collection (its `collection` link names it), not of `events`. */
const isRingItems = (page: EventPage) =>
  (page.links ?? []).some((l) => l.rel === 'collection' && /\/collections\/rings$/.test(l.href));

/** An event page: from its columns when the live index has them ready, else from its JSON. */
const eventPageTable = (b: unknown, columns?: () => EventColumns) =>
  columns ? eventTableOf(columns()) : eventTable(eventPageOf(b));

const TABLES: Record<string, (body: unknown, columns?: () => EventColumns) => Table | undefined> = {
  'events.live': eventPageTable,
  'events.nearby': eventPageTable,
  'events.rings': (b) => eventTable(eventPageOf(b), 'rings'),
  'ogc.items': (b) => eventTable(eventPageOf(b), isRingItems(eventPageOf(b)) ? 'ring-items' : 'events'),
  'portfolio.ep_curve': (b) => (isEpCurveAnswer(b) ? epCurveTable(b) : undefined),
  'portfolio.exposure': (b) => (isExposureAnswer(b) ? exposureTable(b) : undefined),
  'locations.exposure': (b) => (isLocationsExposureAnswer(b) ? locationsExposureTable(b) : undefined),
  'events.exposure': (b) => (isEventExposureAnswer(b) ? eventExposureTable(b) : undefined),
  'portfolio.event_loss': (b) => (isEventLossAnswer(b) ? eventLossTable(b) : undefined),
};

/** The handlers whose answers have an Arrow form. */
export const ARROW_HANDLERS = new Set(Object.keys(TABLES));

/** `columns`: the answer as columns, when the handler has them (HandlerResult.columns). */
export function answerTable(handler: string, body: unknown, columns?: () => EventColumns): Table | undefined {
  return TABLES[handler]?.(body, columns);
}
