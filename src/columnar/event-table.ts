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
import { binaryData, boolData, float64Data, timestampData, utf8Data } from './column-data.js';
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

const DATA_OF: Record<Kind, (values: unknown[]) => Data> = {
  text: utf8Data,
  time: timestampData,
  number: float64Data,
  bool: boolData,
};

const typeOf = (k: Kind): DataType =>
  k === 'text'
    ? new Utf8()
    : k === 'time'
      ? new TimestampMillisecond('UTC')
      : k === 'number'
        ? new Float64()
        : new Bool();

/** The columns a page carries: a ring's or an event's; distance_km only when its features have it (nearby). */
export function eventColumnsOf(page: EventPage): typeof EVENT_COLUMNS {
  if (page.features[0]?.properties?.ring_id !== undefined) return RING_COLUMNS;
  const hasDistance = page.features.some((f) => f.properties?.distance_km !== undefined);
  return EVENT_COLUMNS.filter((c) => c.name !== 'distance_km' || hasDistance);
}

/** Points (events) also get longitude and latitude columns; rings are polygons and have only geometry. */
export const isPointPage = (page: EventPage) => page.features.every((f) => f.geometry?.type === 'Point');

/** Only an id is never null; any other property may be (ended_at while ongoing, a ring's threshold). */
const nullable = (name: string) => name !== 'id' && name !== 'ring_id';

export function eventTable(page: EventPage): Table {
  const columns = eventColumnsOf(page);
  const props = page.features.map((f) => f.properties ?? {});
  const points = isPointPage(page) ? page.features.map((f) => (f.geometry as Point).coordinates) : undefined;
  const fields = [
    ...columns.map((c) => new Field(c.name, typeOf(c.kind), nullable(c.name))),
    ...(points ? [new Field('longitude', new Float64(), false), new Field('latitude', new Float64(), false)] : []),
    new Field('geometry', new Binary(), false, GEOARROW_WKB),
  ];
  const data = [
    ...columns.map((c) => DATA_OF[c.kind](props.map((p) => p[c.name]))),
    ...(points ? [float64Data(points.map((p) => p[0])), float64Data(points.map((p) => p[1]))] : []),
    binaryData(page.features.map((f) => toWkb(f.geometry))),
  ];
  const metadata = new Map<string, string>();
  if (page.numberMatched !== undefined) metadata.set('numberMatched', String(page.numberMatched));
  if (page.numberReturned !== undefined) metadata.set('numberReturned', String(page.numberReturned));
  if (page.timeStamp !== undefined) metadata.set('timeStamp', page.timeStamp);
  const next = page.links?.find((l) => l.rel === 'next');
  if (next) metadata.set('next', next.href);
  const schema = new Schema(fields, metadata);
  const struct = makeData({ type: new Struct(fields), length: page.features.length, nullCount: 0, children: data });
  return new Table(schema, [new RecordBatch(schema, struct)]);
}
