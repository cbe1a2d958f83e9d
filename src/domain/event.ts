/**
 * The Event of docs/contract.md#events, and the normalised record every source
 * module emits. Pure types: no I/O here.
 */
import type { Polygon, MultiPolygon } from 'geojson';
import type { PgaGrid } from './pga-grid.js';

export const EVENT_TYPES = [
  'earthquake',
  'hurricane',
  'wildfire',
  'flood',
  'tornado',
  'severe_storm',
  'winter_storm',
  'extreme_heat',
  'tsunami',
  'volcano',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_STATUSES = ['active', 'monitoring', 'ended'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

export const SOURCE_IDS = ['usgs-earthquakes', 'nws-alerts', 'nhc', 'nifc-wildfires', 'usgs-gauges'] as const;
export type SourceId = (typeof SOURCE_IDS)[number];

/** One point of an event's time series (magnitude revisions, track fixes, gauge stages, containment). */
export interface Observation {
  observedAt: string; // ISO 8601 UTC
  kind: ObservationKind;
  value: number;
  unit: string; // 'kt', 'mb', 'ft', 'acres', 'pct', 'mag', 'km', ...
  lat?: number;
  lng?: number;
}
export type ObservationKind =
  | 'magnitude'
  | 'wind_speed_kt'
  | 'central_pressure_mb'
  | 'gauge_stage_ft'
  | 'discharge_cfs'
  | 'fire_size_acres'
  | 'containment_pct'
  | 'storm_surge_ft'
  /** A storm fix's radius of maximum wind (nm) and wind radii (nm, mean of the four quadrants): its own size. */
  | 'radius_max_wind_nm'
  | 'wind_radius_34kt_nm'
  | 'wind_radius_50kt_nm'
  | 'wind_radius_64kt_nm';

/** Wind radii in nautical miles per quadrant, as NHC/ATCF publish them. */
export interface QuadrantRadiiNm {
  ne: number;
  se: number;
  sw: number;
  nw: number;
}

/** What the ring builder needs, per peril. Sources fill in what their feed gives. */
export type RingInput =
  /** `shakemap`: the USGS ShakeMap's MMI areas when the event has one; its rings then replace the equation's. */
  | { kind: 'earthquake'; magnitude: number; depthKm: number; region: 'west' | 'east'; shakemap?: ShakeMapAreas }
  | {
      kind: 'hurricane';
      windRadiiNm: Partial<Record<34 | 50 | 64, QuadrantRadiiNm>>;
      maxWindKt?: number;
      pressureMb?: number;
    }
  /** An area the source draws itself; served as ring kind `ringKind` (default 'alert_area'), e.g. 'forecast_cone'. */
  | { kind: 'polygon'; geometry: Polygon | MultiPolygon; label: string; ringKind?: string }
  | { kind: 'wildfire'; acres: number | null; perimeter?: Polygon | MultiPolygon }
  | { kind: 'gauge'; stageFt: number | null; stages: FloodStages }
  | { kind: 'none'; reason: string };

/** A USGS ShakeMap reduced to what the rings need: the area at or above each ring level (MMI), with provenance. */
export interface ShakeMapAreas {
  /** The product's own version (ShakeMap `shakemap_version` / ComCat product version); null when it does not say. */
  version: string | null;
  /** Which ShakeMap file the areas come from. */
  product: 'cont_mmi.json' | 'grid.xml';
  /** One entry per ring level (8, 6, 4) the map reaches; geometry is the area where MMI >= mmi. */
  levels: { mmi: number; geometry: Polygon | MultiPolygon }[];
}

/** NWS flood categories for a gauge, in feet; null where the category is not defined. */
export interface FloodStages {
  actionFt: number | null;
  floodFt: number | null;
  moderateFt: number | null;
  majorFt: number | null;
}

/**
 * Lifecycle inputs (docs/contract.md#events). A source states what its own signals say; the per-peril age rules in
 * domain/lifecycle.ts turn these into the instants at which the event becomes `monitoring` and `ended`.
 */
export interface LifecycleSignals {
  /** The source says the event is over (final advisory, 100 % contained, alert expired, below action stage). */
  endedAt?: string | null;
  /** The source says the event is winding down (containment high, gauge below flood stage, weakening). */
  winding?: boolean;
  /** The source gives its own expiry (NWS alerts). */
  expiresAt?: string | null;
}

/** The normalised record a source module emits for one upstream record. */
export interface SourceRecord {
  source: SourceId;
  /** The provider's own stable identifier (USGS event id, NWS alert id, ATCF storm id, IRWIN id, site number). */
  sourceId: string;
  sourceUrl: string;
  title: string;
  eventType: EventType;
  severity: number;
  severityLabel: string;
  startedAt: string; // ISO 8601 UTC
  /** The provider's last-modified time of the record; a newer one replaces an older one. */
  sourceUpdatedAt: string;
  lat: number;
  lng: number;
  /** 0..1, per the documented rules of the source module. */
  confidence: number;
  signals: LifecycleSignals;
  ringInput: RingInput;
  observations: Observation[];
  /** Extra fields served by /events/{id} (depth, place, containment, zone codes, ...). */
  details: Record<string, unknown>;
  /**
   * The ring inputs of the record's earlier parts (a best track's earlier fixes, oldest first), so the store
   * keeps the swath: the union of the rings over the track so far (docs/portfolios.md "Now and so far").
   */
  track?: TrackPart[];
  /**
   * An earthquake's ShakeMap PGA grid with its uncertainty and the file or URL it was read from, when the
   * ShakeMap attached was a grid.xml: ingest
   * keeps it (src/store/shakemap-grids.ts) for the live loss. Not part of the content hash: the ShakeMap's
   * version in ringInput already is.
   */
  shakemapGrid?: { grid: PgaGrid; from: string };
}

/** One earlier part of a moving event: where it was, when, and what its rings were drawn from. */
export interface TrackPart {
  at: string;
  lat: number;
  lng: number;
  ringInput: RingInput;
}

export interface SkippedRecord {
  sourceId: string | null;
  reason: string;
}

export interface ParseResult {
  records: SourceRecord[];
  skipped: SkippedRecord[];
  /** What went wrong beside the records without costing one (a ShakeMap grid not read): the run summary lists it. */
  notes?: string[];
}

/** A consequence ring as stored and served (docs/contract.md#events), outermost last. */
export interface Ring {
  kind: string; // 'mmi', 'wind_kt', 'alert_area', 'forecast_cone', 'fire_perimeter', 'ember_zone', 'flood_reach', ...
  label: string;
  threshold: number | null;
  unit: string | null;
  radiusKm: number | null;
  geometry: Polygon | MultiPolygon;
  /**
   * A stand-in drawn because the record carries no geometry for it (a fire as a circle of its reported
   * size): it never replaces a ring of the same kind the source drew itself (src/domain/rings/merge.ts).
   */
  estimate?: boolean;
}
