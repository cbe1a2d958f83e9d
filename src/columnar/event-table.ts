/**
 * A page of events (the FeatureCollection /events/live and /events/nearby answer) or an event's rings
 * (/events/{id}/rings: ring_id, event_id, kind, label, threshold, unit, radius_km, source, source_url,
 * ingested_at, and the polygon as WKB) as an Arrow table, the
 * columns named as the JSON's properties: ids and text as utf8, times as timestamp[ms, UTC], severity,
 * confidence_score and distance_km as float64, upcoming as bool; then longitude and latitude (float64) and
 * geometry, the point as WKB with the GeoArrow extension name `geoarrow.wkb` (CRS84, longitude first), so
 * geopandas and GDAL take it as geometry. The collection's own fields (numberMatched, numberReturned,
 * timeStamp, the next page's link) are the schema's metadata, so a client can still page.
 */
import type { Feature, Geometry, Point } from 'geojson';
import {
  Binary,
  Bool,
  Field,
  Float64,
  RecordBatch,
  Schema,
  Struct,
  Table,
  TimestampMillisecond,
  Utf8,
  makeData,
  type Data,
  type DataType,
} from 'apache-arrow';
import { isUtf8Column, type EventColumns, type Utf8Column } from '../domain/event-columns.js';
import {
  binaryData,
  boolData,
  encodedUtf8Data,
  float64Data,
  pointWkbData,
  timestampMsData,
  utf8Data,
} from './column-data.js';
import { toWkb } from './wkb.js';

type Kind = 'text' | 'time' | 'number' | 'bool';

/** The event properties in the JSON's order, with their Arrow kinds; distance_km only in /events/nearby. */
export const EVENT_COLUMNS: { name: string; kind: Kind; nullable?: boolean }[] = [
  { name: 'id', kind: 'text' },
  { name: 'title', kind: 'text' },
  { name: 'event_type', kind: 'text' },
  { name: 'severity', kind: 'number' },
  { name: 'severity_label', kind: 'text' },
  { name: 'status', kind: 'text' },
  { name: 'started_at', kind: 'time' },
  { name: 'ended_at', kind: 'time', nullable: true },
  { name: 'updated_at', kind: 'time' },
  { name: 'ingested_at', kind: 'time' },
  { name: 'source', kind: 'text' },
  { name: 'source_url', kind: 'text' },
  { name: 'confidence_score', kind: 'number' },
  { name: 'slug', kind: 'text' },
  { name: 'upcoming', kind: 'bool' },
  { name: 'distance_km', kind: 'number' },
];

/** The properties of a ring (/events/{id}/rings), in the JSON's order. */
export const RING_COLUMNS: { name: string; kind: Kind; nullable?: boolean }[] = [
  { name: 'ring_id', kind: 'text' },
  { name: 'event_id', kind: 'text' },
  { name: 'kind', kind: 'text' },
  { name: 'label', kind: 'text' },
  { name: 'threshold', kind: 'number' },
  { name: 'unit', kind: 'text' },
  { name: 'radius_km', kind: 'number' },
  { name: 'source', kind: 'text' },
  { name: 'source_url', kind: 'text' },
  { name: 'ingested_at', kind: 'time' },
];

/** A ring as an item of the OGC `rings` collection (src/handlers/ogc.ts ringFeature()): its event's type and title too. */
export const RING_ITEM_COLUMNS: { name: string; kind: Kind; nullable?: boolean }[] = [
  ...RING_COLUMNS.slice(0, 7),
  { name: 'event_type', kind: 'text' },
  { name: 'event_title', kind: 'text' },
  ...RING_COLUMNS.slice(7),
];

/** GeoArrow's field metadata for WKB geometry in longitude/latitude degrees (OGC:CRS84). */
export const GEOARROW_WKB = new Map([
  ['ARROW:extension:name', 'geoarrow.wkb'],
  ['ARROW:extension:metadata', '{"crs":"OGC:CRS84"}'],
]);

export interface EventPage {
  numberMatched?: number;
  numberReturned?: number;
  timeStamp?: string;
  links?: { rel: string; href: string }[];
  features: Feature<Geometry, Record<string, unknown>>[];
}

const DATA_OF: Record<Kind, (values: ArrayLike<unknown> | Utf8Column) => Data> = {
  text: (v) => (isUtf8Column(v) ? encodedUtf8Data(v) : utf8Data(v)),
  time: (v) => timestampMsData(v as ArrayLike<unknown>),
  number: (v) => float64Data(v as ArrayLike<unknown>),
  bool: (v) => boolData(v as ArrayLike<unknown>),
};

const typeOf = (k: Kind): DataType =>
  k === 'text'
    ? new Utf8()
    : k === 'time'
      ? new TimestampMillisecond('UTC')
      : k === 'number'
        ? new Float64()
        : new Bool();

/** Whose rows a page holds: events, an event's rings, or the OGC `rings` collection's items. */
export type PageOf = EventColumns['of'];

/** The columns a page carries: a ring's or an event's; distance_km only when its features have it (nearby). */
export function eventColumnsOf(page: EventPage, of: PageOf = pageOf(page)): typeof EVENT_COLUMNS {
  if (of !== 'events') return of === 'rings' ? RING_COLUMNS : RING_ITEM_COLUMNS;
  const hasDistance = page.features.some((f) => f.properties?.distance_km !== undefined);
  return EVENT_COLUMNS.filter((c) => c.name !== 'distance_km' || hasDistance);
}

const pageOf = (page: EventPage): PageOf => (page.features[0]?.properties?.ring_id !== undefined ? 'rings' : 'events');

/** The columns of `cols`, in the JSON's order: a ring's, or an event's with distance_km when it has one. */
const columnsOf = (cols: EventColumns): typeof EVENT_COLUMNS =>
  cols.of === 'rings'
    ? RING_COLUMNS
    : cols.of === 'ring-items'
      ? RING_ITEM_COLUMNS
      : EVENT_COLUMNS.filter((c) => c.name !== 'distance_km' || c.name in cols.values);

/** Points (events) also get longitude and latitude columns; rings are polygons and have only geometry. */
export const isPointPage = (page: EventPage) => page.features.every((f) => f.geometry?.type === 'Point');

/** Only an id is never null; any other property may be (ended_at while ongoing, a ring's threshold). */
const nullable = (name: string) => name !== 'id' && name !== 'ring_id';

/** A page's features as columns (times parsed from their ISO text), the form eventTableOf() takes. */
export function columnsOfPage(page: EventPage, of: PageOf = pageOf(page)): EventColumns {
  const columns = eventColumnsOf(page, of);
  const props = page.features.map((f) => f.properties ?? {});
  const values: Record<string, unknown[]> = {};
  for (const c of columns) {
    const vs = props.map((p) => p[c.name]);
    values[c.name] =
      c.kind === 'time' ? vs.map((v) => (v === null || v === undefined ? null : Date.parse(String(v)))) : vs;
  }
  // Rings are polygons, even on an empty page.
  const points =
    of === 'events' && isPointPage(page) ? page.features.map((f) => (f.geometry as Point).coordinates) : undefined;
  return {
    of,
    length: page.features.length,
    values,
    ...(points
      ? { points: { lng: points.map((p) => p[0]), lat: points.map((p) => p[1]) } }
      : { wkb: page.features.map((f) => toWkb(f.geometry)) }),
    numberMatched: page.numberMatched,
    numberReturned: page.numberReturned,
    timeStamp: page.timeStamp,
    next: page.links?.find((l) => l.rel === 'next')?.href,
  };
}

/** `of`: whose rows the page holds, when the caller knows (an empty page of rings shows no ring_id). */
export function eventTable(page: EventPage, of?: PageOf): Table {
  return eventTableOf(columnsOfPage(page, of));
}

/** The Arrow table of a page's columns: whoever made them (the JSON path or the live index), the same schema. */
export function eventTableOf(cols: EventColumns): Table {
  const columns = columnsOf(cols);
  const points = cols.points;
  const fields = [
    ...columns.map((c) => new Field(c.name, typeOf(c.kind), nullable(c.name))),
    ...(points ? [new Field('longitude', new Float64(), false), new Field('latitude', new Float64(), false)] : []),
    new Field('geometry', new Binary(), false, GEOARROW_WKB),
  ];
  const data = [
    ...columns.map((c) => DATA_OF[c.kind](cols.values[c.name])),
    ...(points ? [float64Data(points.lng), float64Data(points.lat), pointWkbData(points.lng, points.lat)] : []),
    ...(points ? [] : [binaryData(cols.wkb ?? [])]),
  ];
  const metadata = new Map<string, string>();
  if (cols.numberMatched !== undefined) metadata.set('numberMatched', String(cols.numberMatched));
  if (cols.numberReturned !== undefined) metadata.set('numberReturned', String(cols.numberReturned));
  if (cols.timeStamp !== undefined) metadata.set('timeStamp', cols.timeStamp);
  if (cols.next !== undefined) metadata.set('next', cols.next);
  const schema = new Schema(fields, metadata);
  const struct = makeData({ type: new Struct(fields), length: cols.length, nullCount: 0, children: data });
  return new Table(schema, [new RecordBatch(schema, struct)]);
}
