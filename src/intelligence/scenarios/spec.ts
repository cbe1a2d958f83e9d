/**
 * A what-if scenario's request (POST /scenarios/run, `catintel scenario run`), validated into a spec, and the
 * hypothetical source record it stands for: the record the matching feed module would emit for such an event
 * (same ring input, same region rule), so the scenario goes through exactly the ring code ingest runs
 * (src/ingest/normalise.ts prepareEvent). Pure.
 */
import type { EventType, QuadrantRadiiNm, RingInput, SourceId, SourceRecord } from '../../domain/event.js';
import type { FloodStages } from '../../domain/event.js';
import { regionOf } from '../../sources/usgs-record.js';
import { stormLabel } from '../domain/inland-decay.js';

export const SCENARIO_TYPES = ['earthquake', 'hurricane', 'wildfire', 'flood'] as const;
export type ScenarioType = (typeof SCENARIO_TYPES)[number];

/** The wind taken for a category given without wind_kt: the middle of its Saffir-Simpson band (Cat 5: 150 kt). */
export const CATEGORY_WIND_KT: Record<number, number> = { 1: 73, 2: 89, 3: 104, 4: 125, 5: 150 };
/** A USGS record without a depth is drawn at 10 km (src/sources/usgs-record.ts); so is a scenario. */
export const DEFAULT_DEPTH_KM = 10;

export interface ScenarioSpec {
  name: string | null;
  notes: string | null;
  event_type: ScenarioType;
  lat: number;
  lng: number;
  magnitude?: number;
  depth_km?: number;
  category?: number;
  wind_kt?: number;
  pressure_mb?: number | null;
  rmw_nm?: number | null;
  heading_deg?: number | null;
  radii_nm?: Partial<Record<'34' | '50' | '64', QuadrantRadiiNm>> | null;
  area_acres?: number;
  gauge?: string;
  stage_ft?: number;
}

export interface FieldError {
  field: string;
  message: string;
}

export const SCENARIO_FIELDS = [
  'name',
  'notes',
  'event_type',
  'lat',
  'lng',
  'magnitude',
  'depth_km',
  'category',
  'wind_kt',
  'pressure_mb',
  'rmw_nm',
  'heading_deg',
  'radii_nm',
  'area_acres',
  'gauge',
  'stage_ft',
] as const;

const PER_TYPE: Record<ScenarioType, readonly string[]> = {
  earthquake: ['magnitude', 'depth_km'],
  hurricane: ['category', 'wind_kt', 'pressure_mb', 'rmw_nm', 'heading_deg', 'radii_nm'],
  wildfire: ['area_acres'],
  flood: ['gauge', 'stage_ft'],
};

export function validateScenario(
  v: Record<string, unknown>,
  stagesOf: (gauge: string) => FloodStages | null,
): { spec?: ScenarioSpec; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const unknown = Object.keys(v).filter((k) => !(SCENARIO_FIELDS as readonly string[]).includes(k));
  for (const k of unknown)
    errors.push({ field: k, message: `not a scenario field (fields: ${SCENARIO_FIELDS.join(', ')})` });
  const n = (
    k: string,
    min: number,
    max: number,
    o: { required?: boolean; minExclusive?: boolean; integer?: boolean } = {},
  ): number | undefined => {
    const x = v[k];
    if (x === undefined || x === null) {
      if (o.required) errors.push({ field: k, message: `${k} is required` });
      return undefined;
    }
    const ok =
      typeof x === 'number' &&
      Number.isFinite(x) &&
      (o.minExclusive ? x > min : x >= min) &&
      x <= max &&
      (!o.integer || Number.isInteger(x));
    if (!ok)
      errors.push({
        field: k,
        message: `a ${o.integer ? 'whole number' : 'number'} ${o.minExclusive ? 'greater than' : 'from'} ${min} ${o.minExclusive ? 'and at most' : 'to'} ${max}`,
      });
    return ok ? (x as number) : undefined;
  };
  const s = (k: string, max: number): string | null => {
    const x = v[k];
    if (x === undefined || x === null) return null;
    // Characters (code points), as the OpenAPI document's maxLength counts them: an emoji is one, not two.
    if (typeof x !== 'string' || x.length === 0 || [...x].length > max) {
      errors.push({ field: k, message: `a string of 1 to ${max} characters` });
      return null;
    }
    return x;
  };
  const type = v.event_type;
  if (typeof type !== 'string' || !(SCENARIO_TYPES as readonly string[]).includes(type)) {
    errors.push({ field: 'event_type', message: `one of ${SCENARIO_TYPES.join(', ')}` });
  }
  const lat = n('lat', -90, 90, { required: true });
  const lng = n('lng', -180, 180, { required: true });
  const name = s('name', 200);
  const notes = s('notes', 2000);
  if (errors.length || lat === undefined || lng === undefined) return { errors };
  const t = type as ScenarioType;
  for (const other of SCENARIO_TYPES.filter((x) => x !== t)) {
    for (const k of PER_TYPE[other])
      if (v[k] !== undefined && !PER_TYPE[t].includes(k))
        errors.push({ field: k, message: `not used by a ${t} scenario (it belongs to ${other})` });
  }
  const spec: ScenarioSpec = { name, notes, event_type: t, lat, lng };
  if (t === 'earthquake') {
    spec.magnitude = n('magnitude', 3, 9.5, { required: true });
    spec.depth_km = n('depth_km', 0, 700) ?? DEFAULT_DEPTH_KM;
  } else if (t === 'hurricane') {
    const category = n('category', 1, 5, { integer: true });
    const wind = n('wind_kt', 34, 200);
    if (
      category === undefined &&
      wind === undefined &&
      !errors.some((e) => e.field === 'category' || e.field === 'wind_kt')
    )
      errors.push({ field: 'wind_kt', message: 'give wind_kt (maximum sustained 1-min wind, kt) or category (1-5)' });
    if (category !== undefined) spec.category = category;
    spec.wind_kt = wind ?? (category !== undefined ? CATEGORY_WIND_KT[category] : undefined);
    spec.pressure_mb = n('pressure_mb', 870, 1020) ?? null;
    spec.rmw_nm = n('rmw_nm', 0, 150, { minExclusive: true }) ?? null;
    spec.heading_deg = n('heading_deg', 0, 360) ?? null;
    spec.radii_nm = radiiOf(v.radii_nm, errors);
  } else if (t === 'wildfire') {
    spec.area_acres = n('area_acres', 0, 5_000_000, { minExclusive: true, required: true });
  } else {
    const g = v.gauge;
    if (typeof g !== 'string' || !/^\d{8,15}$/.test(g))
      errors.push({
        field: 'gauge',
        message: 'a USGS site number (8 to 15 digits) with NWS flood stages in data/flood-stages.csv',
      });
    else if (!stagesOf(g))
      errors.push({ field: 'gauge', message: `no NWS flood stages for USGS site ${g} (data/flood-stages.csv)` });
    else spec.gauge = g;
    spec.stage_ft = n('stage_ft', -100, 1000, { required: true });
  }
  return errors.length ? { errors } : { spec, errors };
}

function radiiOf(x: unknown, errors: FieldError[]): ScenarioSpec['radii_nm'] {
  if (x === undefined || x === null) return null;
  const bad = () =>
    errors.push({
      field: 'radii_nm',
      message: 'an object {"34"|"50"|"64": {ne, se, sw, nw}} of radii in nautical miles (0 to 600)',
    });
  if (typeof x !== 'object' || Array.isArray(x)) return (bad(), null);
  const out: NonNullable<ScenarioSpec['radii_nm']> = {};
  for (const [k, q] of Object.entries(x as Record<string, unknown>)) {
    if (!['34', '50', '64'].includes(k) || typeof q !== 'object' || q === null) return (bad(), null);
    const r = q as Record<string, unknown>;
    const vals = ['ne', 'se', 'sw', 'nw'].map((d) => r[d]);
    if (Object.keys(r).length !== 4 || !vals.every((y) => typeof y === 'number' && y >= 0 && y <= 600))
      return (bad(), null);
    out[k as '34' | '50' | '64'] = { ne: r.ne as number, se: r.se as number, sw: r.sw as number, nw: r.nw as number };
  }
  return out;
}

const SOURCE_OF: Record<ScenarioType, SourceId> = {
  earthquake: 'usgs-earthquakes',
  hurricane: 'nhc',
  wildfire: 'nifc-wildfires',
  flood: 'usgs-gauges',
};

/** The record the feed module of this peril would emit for the hypothetical event (docs/intelligence.md "Scenarios"). */
export function hypotheticalRecord(
  spec: ScenarioSpec,
  id: string,
  now: string,
  stages: FloodStages | null,
): SourceRecord {
  const label = spec.name ?? `Scenario ${spec.event_type}`;
  let ringInput: RingInput;
  let severity: number;
  let severityLabel: string;
  let title: string;
  if (spec.event_type === 'earthquake') {
    severity = spec.magnitude!;
    severityLabel = `M${spec.magnitude!.toFixed(1)}`;
    title = `${label}: M ${spec.magnitude!.toFixed(1)} at ${spec.depth_km} km depth`;
    ringInput = {
      kind: 'earthquake',
      magnitude: spec.magnitude!,
      depthKm: spec.depth_km!,
      region: regionOf(spec.lat, spec.lng),
    };
  } else if (spec.event_type === 'hurricane') {
    severity = spec.wind_kt!;
    severityLabel = stormLabel(spec.wind_kt!);
    title = `${label}: ${severityLabel}, ${spec.wind_kt} kt`;
    const r = spec.radii_nm ?? {};
    const windRadiiNm: Partial<Record<34 | 50 | 64, QuadrantRadiiNm>> = {};
    for (const k of ['34', '50', '64'] as const) if (r[k]) windRadiiNm[Number(k) as 34 | 50 | 64] = r[k]!;
    ringInput = {
      kind: 'hurricane',
      windRadiiNm,
      maxWindKt: spec.wind_kt,
      ...(spec.pressure_mb ? { pressureMb: spec.pressure_mb } : {}),
    };
  } else if (spec.event_type === 'wildfire') {
    severity = spec.area_acres!;
    severityLabel = `${Math.round(spec.area_acres!)} acres`;
    title = `${label}: ${severityLabel}`;
    ringInput = { kind: 'wildfire', acres: spec.area_acres! };
  } else {
    severity = spec.stage_ft!;
    severityLabel = `${spec.stage_ft} ft`;
    title = `${label}: gauge ${spec.gauge} at ${spec.stage_ft} ft`;
    ringInput = { kind: 'gauge', stageFt: spec.stage_ft!, stages: stages! };
  }
  return {
    source: SOURCE_OF[spec.event_type],
    sourceId: `scenario:${id}`,
    sourceUrl: `/api/v1/scenarios/${id}`,
    title,
    eventType: spec.event_type as EventType,
    severity,
    severityLabel,
    startedAt: now,
    sourceUpdatedAt: now,
    lat: spec.lat,
    lng: spec.lng,
    confidence: 0,
    signals: {},
    ringInput,
    observations: [],
    details: { scenario: true },
  };
}
