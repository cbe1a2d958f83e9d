/**
 * OGC API - Features Part 1 (OGC 17-069r4) documents: the conformance declaration and the collection
 * descriptions. Pure: the extents come from the store, the links are root-relative like every link the API
 * returns (a proxy may change the host; clients resolve them against the request URL, RFC 3986 §5).
 */
import type { Link } from './features.js';

export const OGC_API = '/api/v1';

/** The conformance classes we implement (17-069r4 §7.4, Annex A): Core, GeoJSON, OpenAPI 3.0. */
export const CONFORMS_TO = [
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
  'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
] as const;

export const CRS84 = 'http://www.opengis.net/def/crs/OGC/1.3/CRS84';
const GREGORIAN = 'http://www.opengis.net/def/uom/ISO-8601/0/Gregorian';

export const COLLECTION_IDS = ['events', 'rings'] as const;
export type CollectionId = (typeof COLLECTION_IDS)[number];

export const isCollectionId = (v: string): v is CollectionId => (COLLECTION_IDS as readonly string[]).includes(v);

const ABOUT: Record<CollectionId, { title: string; description: string }> = {
  events: {
    title: 'Live events',
    description:
      'Events with status active or monitoring at the service clock, one Point feature per event (the same features as /events/live).',
  },
  rings: {
    title: 'Consequence rings of live events',
    description:
      'One Polygon or MultiPolygon feature per ring (MMI contours, wind radii, cones, fire perimeters, alert areas) of the live events.',
  },
};

export interface CollectionExtent {
  bbox: [number, number, number, number];
  start: string;
}

export interface CollectionDoc {
  id: CollectionId;
  title: string;
  description: string;
  links: Link[];
  extent?: {
    spatial: { bbox: [number, number, number, number][]; crs: string };
    temporal: { interval: [string, null][]; trs: string };
  };
  itemType: 'feature';
  crs: string[];
}

/** A collection's description (17-069r4 §7.14); no extent when the collection holds no features. */
export function collectionDoc(id: CollectionId, extent: CollectionExtent | undefined): CollectionDoc {
  const self = `${OGC_API}/collections/${id}`;
  return {
    id,
    ...ABOUT[id],
    links: [
      { href: self, rel: 'self', type: 'application/json', title: 'This collection' },
      { href: `${self}/items`, rel: 'items', type: 'application/geo+json', title: `${ABOUT[id].title} (GeoJSON)` },
      ...(id === 'events'
        ? [
            {
              href: `${OGC_API}/events/live`,
              rel: 'alternate',
              type: 'application/geo+json',
              title: 'The same events at the contract path',
            },
          ]
        : []),
    ],
    // Live events have not ended: the interval stays open at its end (null).
    ...(extent
      ? {
          extent: {
            spatial: { bbox: [extent.bbox], crs: CRS84 },
            temporal: { interval: [[extent.start, null]], trs: GREGORIAN },
          },
        }
      : {}),
    itemType: 'feature',
    crs: [CRS84],
  };
}

export function collectionsDoc(collections: CollectionDoc[]): { links: Link[]; collections: CollectionDoc[] } {
  return {
    links: [{ href: `${OGC_API}/collections`, rel: 'self', type: 'application/json', title: 'This document' }],
    collections,
  };
}

export function conformanceDoc(): { conformsTo: string[] } {
  return { conformsTo: [...CONFORMS_TO] };
}

/** The links of an items page (17-069r4 §7.15.6): self, the collection, next when more features match. */
export function itemsLinks(id: CollectionId, self: string, next?: string): Link[] {
  const links: Link[] = [
    { href: self, rel: 'self', type: 'application/geo+json', title: 'This document' },
    { href: `${OGC_API}/collections/${id}`, rel: 'collection', type: 'application/json', title: 'The collection' },
  ];
  if (next) links.push({ href: next, rel: 'next', type: 'application/geo+json', title: 'Next page' });
  return links;
}

/** The links of one feature (17-069r4 §7.16.2): self and its collection. */
export function itemLinks(id: CollectionId, featureId: string): Link[] {
  return [
    {
      href: `${OGC_API}/collections/${id}/items/${featureId}`,
      rel: 'self',
      type: 'application/geo+json',
      title: 'This feature',
    },
    { href: `${OGC_API}/collections/${id}`, rel: 'collection', type: 'application/json', title: 'The collection' },
  ];
}
