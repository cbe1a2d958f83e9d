/**
 * GET /infrastructure and `catintel infra near` (docs/contract.md#access: free): hospitals, fire stations,
 * schools, urgent care (and EMS, for which no data is embedded) within radius_km of a point, nearest first
 * with distance_km, as a paged GeoJSON FeatureCollection from the embedded HIFLD data
 * (data/infrastructure/, scripts/build-infrastructure.ts). `coverage` says, per kind asked, whether the
 * data covers the query area, so an empty list never reads as "none here" (docs/intelligence.md).
 */
import { countyAt, loadCounties } from '../intelligence/counties.js';
import { coverageOf } from '../intelligence/domain/coverage.js';
import { INFRA_KINDS, type Facility, type InfraKind } from '../intelligence/infrastructure/format.js';
import { facilitiesNear, loadInfrastructure } from '../intelligence/infrastructure/store.js';
import { collection, hrefOf, withCursor } from '../domain/features.js';
import { destination } from '../lib/geo.js';
import { decodeCursor, encodeCursor, int, list, num } from './params.js';
import { defineHandler, type HandlerResult } from './types.js';
import { defaults } from '../config/defaults.js';

const API = '/api/v1';
export const INFRA_RADIUS_DEFAULT_KM = 25;
export const INFRA_RADIUS_MAX_KM = 500;

interface OffsetCursor {
  o: number;
}
const isOffset = (v: unknown): v is OffsetCursor =>
  typeof v === 'object' && v !== null && Number.isInteger((v as OffsetCursor).o) && (v as OffsetCursor).o >= 0;

/** A facility as a GeoJSON feature with its provenance (docs/contract.md#provenance: every record carries source, source_url, ingested_at). */
export function facilityFeature(f: Facility, distanceKm: number | null) {
  const meta = loadInfrastructure().meta.kinds.find((k) => k.kind === f.kind);
  return {
    type: 'Feature' as const,
    id: `${f.kind}:${f.id}`,
    geometry: { type: 'Point' as const, coordinates: [f.lng, f.lat] },
    properties: {
      id: `${f.kind}:${f.id}`,
      kind: f.kind,
      name: f.name,
      city: f.city,
      state: f.state,
      ...(distanceKm === null ? {} : { distance_km: Math.round(distanceKm * 100) / 100 }),
      ...f.extra,
      source: meta?.source ?? 'HIFLD Open',
      source_url: meta?.source_url ?? 'https://hifld-geoplatform.hub.arcgis.com/',
      ingested_at: meta?.ingested_at ?? null,
    },
  };
}

/** USPS codes of the states under the query circle: its centre, 8 points at half the radius and 16 on its edge. */
export function statesUnder(lat: number, lng: number, radiusKm: number): string[] {
  const ci = loadCounties();
  const points: [number, number][] = [[lat, lng]];
  for (let i = 0; i < 8; i++) points.push(swap(destination(lat, lng, radiusKm / 2, i * 45)));
  for (let i = 0; i < 16; i++) points.push(swap(destination(lat, lng, radiusKm, i * 22.5)));
  const states = new Set<string>();
  for (const [la, ln] of points) {
    const c = countyAt(ci, la, ln);
    if (c) states.add(c.state);
  }
  return [...states].sort();
}
const swap = (p: number[]): [number, number] => [p[1], p[0]];

export interface InfraInput {
  lat: number;
  lng: number;
  radiusKm: number;
  kinds: InfraKind[];
  kindRaw?: string;
  limit: number;
  offset: number;
}

export const infrastructure = defineHandler<InfraInput, unknown>({
  name: 'infrastructure',
  summary:
    'Critical infrastructure (hospitals, fire stations, schools, urgent care, EMS) within a radius, nearest first',
  http: { method: 'GET', path: '/infrastructure', access: 'free' },
  cli: {
    command: ['infra', 'near'],
    options: [
      { flags: '--lat <lat>', description: 'latitude, WGS84 degrees' },
      { flags: '--lng <lng>', description: 'longitude, WGS84 degrees' },
      {
        flags: '--radius-km <km>',
        description: `search radius (default ${INFRA_RADIUS_DEFAULT_KM}, max ${INFRA_RADIUS_MAX_KM})`,
      },
      { flags: '--kind <kinds>', description: `comma list of ${INFRA_KINDS.join(', ')} (default all)` },
      { flags: '--limit <n>', description: `page size (default ${defaults.pageLimit}, max ${defaults.pageLimitMax})` },
      { flags: '--cursor <cursor>', description: 'the cursor from links.next of the previous page' },
    ],
    examples: [
      'catintel infra near --lat 25.77 --lng -80.19 --radius-km 10 --kind hospital',
      'catintel infra near --lat 45.52 --lng -122.68 --kind school,fire_station --json',
    ],
  },
  storeless: true,
  parse: (raw) => ({
    lat: num(raw, 'lat', { min: -90, max: 90 }),
    lng: num(raw, 'lng', { min: -180, max: 180 }),
    radiusKm: num(raw, 'radius_km', { min: 0, max: INFRA_RADIUS_MAX_KM, minExclusive: true }, INFRA_RADIUS_DEFAULT_KM),
    kinds: list(raw, 'kind', INFRA_KINDS) ?? [...INFRA_KINDS],
    kindRaw: typeof raw.kind === 'string' ? raw.kind : undefined,
    limit: int(raw, 'limit', { min: 1, max: defaults.pageLimitMax }, defaults.pageLimit),
    offset: decodeCursor(raw, isOffset)?.o ?? 0,
  }),
  async run(ctx, input): Promise<HandlerResult> {
    const store = loadInfrastructure();
    const hits = facilitiesNear(store, input.lat, input.lng, input.radiusKm, input.kinds);
    const page = hits.slice(input.offset, input.offset + input.limit);
    const base = hrefOf(`${API}/infrastructure`, {
      lat: input.lat,
      lng: input.lng,
      radius_km: input.radiusKm,
      kind: input.kindRaw,
      limit: input.limit,
    });
    const self = withCursor(base, input.offset ? encodeCursor({ o: input.offset }) : undefined);
    const next =
      input.offset + page.length < hits.length
        ? withCursor(base, encodeCursor({ o: input.offset + page.length }))
        : undefined;
    const countsByKind = Object.fromEntries(
      input.kinds.map((k) => [k, hits.filter((h) => h.facility.kind === k).length]),
    );
    const coverage = coverageOf(input.kinds, store.meta.kinds, statesUnder(input.lat, input.lng, input.radiusKm));
    const body = {
      ...collection(
        page.map((h) => facilityFeature(h.facility, h.distanceKm)),
        { matched: hits.length, now: ctx.clock().toISOString(), self, next },
      ),
      query: { lat: input.lat, lng: input.lng, radius_km: input.radiusKm, kinds: input.kinds },
      counts_by_kind: countsByKind,
      coverage,
    };
    const notes = coverage.filter((c) => c.covered !== 'yes').map((c) => c.note);
    return { body, mediaType: 'application/geo+json', notes: notes.length ? notes : undefined };
  },
});
