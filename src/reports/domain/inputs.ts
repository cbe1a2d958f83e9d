/**
 * What the reports are made from: the bodies of the existing endpoints, as a caller gets them (GET
 * /events/{id}, /events/{id}/rings, and the intelligence endpoints when they answer). Nothing here is
 * recomputed; an endpoint that is not available is carried as the one line saying why.
 */
import type { MultiPolygon, Polygon } from 'geojson';
import type { EventProperties } from '../../domain/features.js';

export interface Observation {
  kind: string;
  observed_at: string;
  value: number;
  unit: string;
  lat: number | null;
  lng: number | null;
}

/** The properties of the /events/{id} body the reports read: the API's own, with what the detail adds. */
export interface EventProps extends Omit<EventProperties, 'upcoming' | 'distance_km'> {
  source_id: string;
  details: Record<string, unknown>;
  observations: Observation[];
}

export interface EventInput {
  lng: number;
  lat: number;
  props: EventProps;
}

export interface RingInput {
  geometry: Polygon | MultiPolygon;
  props: {
    ring_id: string;
    kind: string;
    label: string;
    threshold: number | null;
    unit: string | null;
    radius_km: number | null;
  };
}

/** One intelligence endpoint's answer: its body, or why there is none. */
export type Section<T = unknown> =
  { ok: true; handler: string; path: string; body: T } | { ok: false; handler: string; path: string; reason: string };

/** Where the event is, from the us-atlas county and state outlines (reverse geocoding, ICS-209 blocks 16-17). */
export interface Place {
  state: string | null;
  stateFips: string | null;
  county: string | null;
  countyFips: string | null;
  /** 0 inside the county; km off its coast when the point is offshore but near; null when neither. */
  offshoreKm: number | null;
}

export interface Hospital {
  name: string;
  lat: number;
  lng: number;
  city?: string;
  beds?: number | null;
}

export interface ReportInputs {
  event: EventInput;
  rings: RingInput[];
  exposure: Section;
  prediction: Section;
  timeline: Section;
  /** Hospitals for the map: the infrastructure endpoint's, or (until it answers) the HIFLD file's. */
  hospitals:
    | { list: Hospital[]; source: string; fromEndpoint: boolean }
    | { list: []; source: string; fromEndpoint: false; reason: string };
  place: Place;
  /** The clock: generation time of the report. */
  now: string;
  /** The caller's portfolios are in play (an authenticated HTTP caller or the CLI operator). */
  authenticated: boolean;
  /** The live loss band of each of the caller's portfolios the event reached (src/reports/portfolio-losses.ts). */
  portfolioLosses: { rows: PortfolioLossRow[] } | { rows: []; reason: string };
}

export interface PortfolioLossRow {
  portfolio: string;
  id: string;
  /** The product version the band was computed on (NHC advisory, best track through, USGS origin). */
  version: string | null;
  band: {
    mean: number;
    p10: number;
    p50: number;
    p90: number;
    tivInFootprint: number;
    currency: string | null;
    members: number;
    samples: number;
    how: string;
  } | null;
  reason?: string;
}

export const PERIL_NAMES: Record<string, string> = {
  earthquake: 'Earthquake',
  hurricane: 'Hurricane',
  wildfire: 'Wildfire',
  flood: 'Flood',
  tornado: 'Tornado',
  severe_storm: 'Severe storm',
  winter_storm: 'Winter storm',
  extreme_heat: 'Extreme heat',
  tsunami: 'Tsunami',
  volcano: 'Volcano',
};

export const perilName = (t: string) => PERIL_NAMES[t] ?? t.replace(/_/g, ' ');

/** The event's observations of one kind, oldest first. */
export function series(e: EventProps, kind: string): Observation[] {
  return e.observations.filter((o) => o.kind === kind).sort((a, b) => a.observed_at.localeCompare(b.observed_at));
}

export const detailNum = (e: EventProps, key: string): number | null => {
  const v = e.details?.[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
};
export const detailStr = (e: EventProps, key: string): string | null => {
  const v = e.details?.[key];
  return typeof v === 'string' && v.trim() !== '' ? v : null;
};
