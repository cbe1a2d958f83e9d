/**
 * Event rows -> OGC API - Features GeoJSON (docs/contract.md#events): Feature properties as in the specification
 * §2.1 plus ingested_at, updated_at, ended_at and upcoming; collections carry numberMatched, numberReturned,
 * timeStamp and links. Links are relative to the service root, so the CLI and the HTTP API emit the
 * same JSON.
 */
import type { Feature, Point } from 'geojson';

export interface EventProperties {
  id: string;
  title: string;
  event_type: string;
  severity: number;
  severity_label: string;
  status: string;
  started_at: string;
  ended_at: string | null;
  updated_at: string;
  ingested_at: string;
  source: string;
  source_url: string;
  confidence_score: number;
  slug: string;
  /**
   * True while started_at (an alert's onset: watches and heat products are often issued days ahead) is
   * still after now: the event is announced, not yet under way. docs/lifecycle.md.
   */
  upcoming: boolean;
  distance_km?: number;
}

export interface EventLike extends Omit<EventProperties, 'distance_km'> {
  lat: number;
  lng: number;
  distance_km?: number;
}

export function eventFeature(e: EventLike): Feature<Point, EventProperties> {
  const properties: EventProperties = {
    id: e.id,
    title: e.title,
    event_type: e.event_type,
    severity: e.severity,
    severity_label: e.severity_label,
    status: e.status,
    started_at: e.started_at,
    ended_at: e.ended_at,
    updated_at: e.updated_at,
    ingested_at: e.ingested_at,
    source: e.source,
    source_url: e.source_url,
    confidence_score: e.confidence_score,
    slug: e.slug,
    upcoming: e.upcoming,
  };
  if (e.distance_km !== undefined) properties.distance_km = Math.round(e.distance_km * 100) / 100;
  return { type: 'Feature', id: e.id, geometry: { type: 'Point', coordinates: [e.lng, e.lat] }, properties };
}

export interface Link {
  href: string;
  rel: string;
  type: string;
  title?: string;
}

export interface Collection<F> {
  type: 'FeatureCollection';
  numberMatched: number;
  numberReturned: number;
  timeStamp: string;
  links: Link[];
  features: F[];
}

export function collection<F>(
  features: F[],
  o: { matched: number; now: string; self: string; next?: string },
): Collection<F> {
  const links: Link[] = [{ href: o.self, rel: 'self', type: 'application/geo+json', title: 'this document' }];
  if (o.next) links.push({ href: o.next, rel: 'next', type: 'application/geo+json', title: 'next page' });
  return {
    type: 'FeatureCollection',
    numberMatched: o.matched,
    numberReturned: features.length,
    timeStamp: o.now,
    links,
    features,
  };
}

/**
 * JSON.stringify(collection(features, o)) up to and including the `[` of "features", for `returned` features:
 * the head that the live index follows with prebuilt feature bytes (src/live-index/render.ts). Written out,
 * key for key as collection() orders them, because stringifying the object was a tenth of such a body's
 * assembly; test/live-index.test.ts compares the two paths' bytes.
 */
export function collectionHead(
  returned: number,
  o: { matched: number; now: string; self: string; next?: string },
): string {
  const self = `{"href":${JSON.stringify(o.self)},"rel":"self","type":"application/geo+json","title":"this document"}`;
  const next = o.next
    ? `,{"href":${JSON.stringify(o.next)},"rel":"next","type":"application/geo+json","title":"next page"}`
    : '';
  return `{"type":"FeatureCollection","numberMatched":${o.matched},"numberReturned":${returned},"timeStamp":${JSON.stringify(o.now)},"links":[${self}${next}],"features":[`;
}

/** "/api/v1/events/live?limit=10&cursor=..." with parameters in a stable order. */
export function hrefOf(path: string, query: Record<string, string | number | undefined>): string {
  // A loop, not entries/filter/map/join: every events page builds one or two of these.
  let q = '';
  for (const k in query) {
    const v = query[k];
    if (v === undefined || v === '') continue;
    q += `${q === '' ? '' : '&'}${encodeURIComponent(k)}=${typeof v === 'number' ? numberText(v) : encodeURIComponent(v)}`;
  }
  return q ? `${path}?${q}` : path;
}

/**
 * encodeURIComponent(String(v)) of a number without the call: a number's text holds only digits, '-', '.', 'e'
 * and letters, all left as they are, but for the '+' of an exponent from 1e21 up.
 */
const numberText = (v: number): string => (Math.abs(v) < 1e21 ? String(v) : encodeURIComponent(String(v)));

/** hrefOf(path, { ...query, cursor }) from hrefOf(path, query): a page's self and next links share their query but the cursor. */
export function withCursor(href: string, cursor: string | undefined): string {
  if (cursor === undefined || cursor === '') return href;
  return `${href}${href.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`;
}

/** What /events/{id} adds to an event's feature beyond the list properties. */
export interface EventDetailParts {
  id: string;
  source_id: string;
  monitoring_from: string | null;
  /** The stored details JSON text. */
  details: string;
  source_url: string;
}

/**
 * The full event of /events/{id} and `events show`: its feature plus source id, lifecycle, details, ring
 * count, observations and links. One builder, so the store path and the server's live index answer
 * byte for byte alike.
 */
export function eventDetailFeature<F extends Feature>(
  feature: F,
  row: EventDetailParts,
  ringCount: number,
  observations: unknown[],
): Feature {
  return {
    ...feature,
    properties: {
      ...feature.properties,
      source_id: row.source_id,
      monitoring_from: row.monitoring_from,
      details: JSON.parse(row.details) as unknown,
      ring_count: ringCount,
      observations,
      links: [
        { href: `/api/v1/events/${row.id}`, rel: 'self', type: 'application/geo+json' },
        { href: `/api/v1/events/${row.id}/rings`, rel: 'rings', type: 'application/geo+json' },
        { href: row.source_url, rel: 'via', type: 'text/html' },
      ],
    },
  };
}
