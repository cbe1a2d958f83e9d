/**
 * NIFC WFIGS wildfire incidents (ArcGIS FeatureServer `query?f=geojson`). Reads the Incident Locations
 * layer (points, flat IRWIN field names) and the Interagency Perimeters layer (polygons, `poly_*` /
 * `attr_*` names) with the same rules; docs/sources/nifc-wildfires.md explains them.
 */
import type { MultiPolygon, Polygon } from 'geojson';
import { centerOfMass } from '@turf/center-of-mass';
import type { Observation, ParseResult, SkippedRecord, SourceRecord } from '../domain/event.js';
import { normalizePolygon } from '../domain/rings/polygon.js';
import { CatintelError } from '../errors.js';
import { round6 } from '../lib/geo.js';
import type { ParseContext, SourceModule } from './types.js';
import { isPlausibleUsPoint } from './reference/us-extent.js';
import { readRecord } from './guard.js';

const SERVICES = 'https://services3.arcgis.com/T4QMspbfLg3qTGWY/arcgis/rest/services';
const LOCATIONS = `${SERVICES}/WFIGS_Incident_Locations_Current/FeatureServer/0/query`;
const PERIMETERS = `${SERVICES}/WFIGS_Interagency_Perimeters_Current/FeatureServer/0/query`;

export const nifcWildfires: SourceModule = {
  id: 'nifc-wildfires',
  officialUrl: `${LOCATIONS}?where=1%3D1&outFields=*&f=geojson`,
  accept: 'application/geo+json',
  description: 'NIFC WFIGS current wildfire incidents (IRWIN points; the perimeters layer is read too)',
  parse: parseWfigs,
};

type Props = Record<string, unknown>;

/** NWCG size classes (NWCG Glossary of Wildland Fire, PMS 205: "size class of fire"), upper bounds in acres. */
const SIZE_CLASSES: [string, number, string][] = [
  ['A', 0.25, '0.25 acres or less'],
  ['B', 10, '0.26-9.9 acres'],
  ['C', 100, '10-99.9 acres'],
  ['D', 300, '100-299 acres'],
  ['E', 1000, '300-999 acres'],
  ['F', 5000, '1,000-4,999 acres'],
  ['G', Infinity, '5,000+ acres'],
];

export function sizeClassOf(acres: number | null): string {
  if (acres === null) return 'size unknown';
  const c = SIZE_CLASSES.find(([name, max]) => (name === 'A' ? acres <= max : acres < max))!;
  return `Class ${c[0]} (${c[2]})`;
}

/** Containment at or above this (percent) counts as winding down [judgement: NIFC sitreps treat 90 %+ as near-complete]. */
export const WINDING_CONTAINMENT_PCT = 90;

export function parseWfigs(body: string, ctx: ParseContext): ParseResult {
  const features = featuresOf(body, ctx.sourceUrl);
  const records: SourceRecord[] = [];
  const skipped: SkippedRecord[] = [];
  for (const f of features) {
    const out = readRecord(
      () => toRecord(f),
      () => (f as { properties?: { IrwinID?: unknown } }).properties?.IrwinID,
    );
    if ('reason' in out) skipped.push(out);
    else records.push(out);
  }
  return { records, skipped };
}

function featuresOf(body: string, where: string): Props[] {
  let doc: Props;
  try {
    doc = JSON.parse(body) as Props;
  } catch {
    throw new CatintelError('invalid_input', `${where}: not JSON; expected the WFIGS layer as GeoJSON (f=geojson)`);
  }
  const err = doc?.error as Props | undefined;
  if (err)
    throw new CatintelError(
      'invalid_input',
      `${where}: ArcGIS error ${String(err.code ?? '')}: ${String(err.message ?? '')}`.trim(),
    );
  if (doc?.type !== 'FeatureCollection' || !Array.isArray(doc.features)) {
    throw new CatintelError(
      'invalid_input',
      `${where}: not a GeoJSON FeatureCollection; expected the WFIGS layer with f=geojson`,
    );
  }
  const features = (doc.features as unknown[]).filter((f): f is Props => typeof f === 'object' && f !== null);
  if (features.length && !features.some((f) => irwinOf(props(f)) !== null || get(props(f), 'IncidentName') !== null)) {
    throw new CatintelError(
      'invalid_input',
      `${where}: GeoJSON without WFIGS incident fields (IrwinID, IncidentName); is this another layer or feed?`,
    );
  }
  return features;
}

const props = (f: Props) => (f.properties ?? {}) as Props;
/** A field of either layer: flat in Incident Locations, `attr_`-prefixed in Interagency Perimeters. */
const get = (p: Props, name: string): unknown => p[name] ?? p[`attr_${name}`] ?? null;
const irwinOf = (p: Props): string | null => text(p.IrwinID ?? p.attr_IrwinID ?? p.poly_IRWINID ?? p.poly_IrwinID);

function toRecord(f: Props): SourceRecord | SkippedRecord {
  const p = props(f);
  const rawIrwin = irwinOf(p);
  const ufi = text(get(p, 'UniqueFireIdentifier'));
  // IRWIN ids appear with and without braces, in either case; one spelling keeps one event per fire.
  const sourceId = rawIrwin ? rawIrwin.replace(/[{}]/g, '').toUpperCase() : ufi;
  if (!sourceId) return { sourceId: null, reason: 'no IrwinID or UniqueFireIdentifier' };
  const category = text(get(p, 'IncidentTypeCategory'));
  if (category === 'RX') return { sourceId, reason: 'prescribed fire (IncidentTypeCategory RX), not a wildfire' };
  if (category !== null && category !== 'WF' && category !== 'CX')
    return { sourceId, reason: `not a wildfire incident (IncidentTypeCategory ${category})` };

  const perimeter = perimeterOf(f.geometry);
  const where = locationOf(f.geometry, p, perimeter);
  if (!where)
    return {
      sourceId,
      reason: `no usable location (geometry ${JSON.stringify(pointCoords(f.geometry))}, initial ${String(get(p, 'InitialLatitude'))}, ${String(get(p, 'InitialLongitude'))})`,
    };
  const discovered = time(get(p, 'FireDiscoveryDateTime')) ?? time(get(p, 'CreatedOnDateTime_dt'));
  const modified = time(get(p, 'ModifiedOnDateTime_dt')) ?? time(p.poly_DateCurrent) ?? discovered;
  if (!discovered || !modified) return { sourceId, reason: 'no discovery or modification time' };

  const acres = num(get(p, 'IncidentSize')) ?? num(p.poly_GISAcres);
  const pct = num(get(p, 'PercentContained'));
  const out = time(get(p, 'FireOutDateTime'));
  const contained = time(get(p, 'ContainmentDateTime'));
  const controlled = time(get(p, 'ControlDateTime'));
  const state = text(get(p, 'POOState'))?.replace(/^US-/, '') ?? null;
  const observations: Observation[] = [];
  if (acres !== null)
    observations.push({ observedAt: modified, kind: 'fire_size_acres', value: acres, unit: 'acres', ...where });
  if (pct !== null)
    observations.push({ observedAt: modified, kind: 'containment_pct', value: pct, unit: 'pct', ...where });
  const layerUrl = perimeter ? PERIMETERS : LOCATIONS;
  const idField = perimeter ? 'poly_IRWINID' : 'IrwinID';
  return {
    source: 'nifc-wildfires',
    sourceId,
    sourceUrl: rawIrwin
      ? `${layerUrl}?where=${encodeURIComponent(`${idField}='${rawIrwin}'`)}&outFields=*&f=geojson`
      : `${layerUrl}?where=${encodeURIComponent(`UniqueFireIdentifier='${ufi}'`)}&outFields=*&f=geojson`,
    title: titleOf(text(get(p, 'IncidentName')) ?? text(p.poly_IncidentName) ?? ufi ?? 'Unnamed', state),
    eventType: 'wildfire',
    severity: acres ?? 0,
    severityLabel: sizeClassOf(acres),
    startedAt: discovered,
    sourceUpdatedAt: modified,
    lat: where.lat,
    lng: where.lng,
    // A mapped perimeter is the best evidence; a reported size without one is good; no size, fair.
    confidence: perimeter ? 1 : acres !== null ? 0.9 : 0.7,
    signals: {
      endedAt: out,
      winding: (pct !== null && pct >= WINDING_CONTAINMENT_PCT) || contained !== null || controlled !== null,
    },
    ringInput: perimeter ? { kind: 'wildfire', acres, perimeter } : { kind: 'wildfire', acres },
    observations,
    details: {
      irwin_id: rawIrwin,
      unique_fire_identifier: ufi,
      incident_type_category: category ?? 'WF',
      acres,
      percent_contained: pct,
      size_class: sizeClassOf(acres),
      discovery_acres: num(get(p, 'DiscoveryAcres')),
      containment_at: contained,
      control_at: controlled,
      fire_out_at: out,
      poo_state: state,
      poo_county: text(get(p, 'POOCounty')),
      poo_fips: text(get(p, 'POOFips')),
      fire_cause: text(get(p, 'FireCause')),
      gacc: text(get(p, 'GACC')),
      total_personnel: num(get(p, 'TotalIncidentPersonnel')),
      estimated_cost_usd: num(get(p, 'EstimatedCostToDate')),
      layer: perimeter ? 'perimeters' : 'incident_locations',
      perimeter_at: perimeter ? time(p.poly_PolygonDateTime) : null,
      perimeter_acres: perimeter ? num(p.poly_GISAcres) : null,
    },
  };
}

function perimeterOf(geometry: unknown): Polygon | MultiPolygon | null {
  const g = geometry as { type?: string; coordinates?: unknown } | null;
  if (!g || (g.type !== 'Polygon' && g.type !== 'MultiPolygon') || !Array.isArray(g.coordinates)) return null;
  return normalizePolygon(g as Polygon | MultiPolygon);
}

/** The point of origin: the point geometry, else IRWIN's initial lat/lng, else the perimeter's centroid. */
function locationOf(
  geometry: unknown,
  p: Props,
  perimeter: Polygon | MultiPolygon | null,
): { lat: number; lng: number } | null {
  const c = pointCoords(geometry);
  if (c && isPlausibleUsPoint(c[1], c[0])) return { lat: round6(c[1]), lng: round6(c[0]) };
  const lat = num(get(p, 'InitialLatitude'));
  const lng = num(get(p, 'InitialLongitude'));
  if (isPlausibleUsPoint(lat, lng)) return { lat: round6(lat), lng: round6(lng as number) };
  if (perimeter) {
    const [x, y] = centerOfMass(perimeter).geometry.coordinates;
    if (isPlausibleUsPoint(y, x)) return { lat: round6(y), lng: round6(x) };
  }
  return null;
}

function pointCoords(geometry: unknown): number[] | null {
  const g = geometry as { type?: string; coordinates?: unknown } | null;
  return g?.type === 'Point' && Array.isArray(g.coordinates) ? (g.coordinates as number[]) : null;
}

/** "PARK" -> "Park Fire (CA)"; names already saying Fire or Complex keep their wording. */
function titleOf(name: string, state: string | null): string {
  const cased = name === name.toUpperCase() ? name.toLowerCase().replace(/\b[a-z]/g, (ch) => ch.toUpperCase()) : name;
  const full = /\b(fire|complex)\b/i.test(cased) ? cased : `${cased} Fire`;
  return state ? `${full} (${state})` : full;
}

/** ArcGIS f=geojson sends dates as epoch milliseconds; ISO strings are accepted too. */
function time(v: unknown): string | null {
  const t =
    typeof v === 'number'
      ? v
      : typeof v === 'string' && v.trim() !== ''
        ? /^\d+$/.test(v)
          ? Number(v)
          : Date.parse(v)
        : NaN;
  return Number.isFinite(t) ? new Date(t).toISOString() : null;
}
const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : null;
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
