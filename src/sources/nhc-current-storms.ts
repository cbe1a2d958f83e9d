/**
 * NHC CurrentStorms.json ({"activeStorms": [...]}, one entry per storm with a current advisory; format
 * as in NHC's sample https://www.nhc.noaa.gov/productexamples/NHC_JSON_Sample.json). `intensity` (kt) and
 * `pressure` (mb) are strings; positions come as numbers in latitudeNumeric/longitudeNumeric. The file
 * carries no wind radii, so the ring builder falls back to its parametric estimate. Rules: docs/sources/nhc.md.
 */
import type { ParseResult, SkippedRecord, SourceRecord } from '../domain/event.js';
import type { ParseContext } from './types.js';
import { WINDING_TYPES, saffirSimpsonLabel, stormTitle, typeName, fixObservations } from './nhc-common.js';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Numbers may arrive as numbers or numeric strings ("100", "19.1"); "" and junk are null. */
const num = (v: unknown): number | null => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : null;
};
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const isoOrNull = (v: unknown): string | null => {
  const ms = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
};

/** An advisory product entry ({advNum, issuance, url}) -> its fields, or null. */
function product(v: unknown): { advNum: string | null; issuance: string | null; url: string | null } | null {
  if (!isObject(v)) return null;
  return { advNum: str(v.advNum), issuance: isoOrNull(v.issuance), url: str(v.url) };
}

/** Operational advisory values are revised in the post-season best track: a little below 1.0. */
const ADVISORY_CONFIDENCE = 0.9;

export function parseCurrentStorms(doc: { activeStorms: unknown[] }, ctx: ParseContext): ParseResult {
  const records: SourceRecord[] = [];
  const skipped: SkippedRecord[] = [];
  for (const entry of doc.activeStorms) {
    const r = stormRecord(entry, ctx);
    if ('reason' in r) skipped.push(r);
    else records.push(r);
  }
  return { records, skipped };
}

function stormRecord(entry: unknown, ctx: ParseContext): SourceRecord | SkippedRecord {
  if (!isObject(entry)) return { sourceId: null, reason: 'activeStorms entry is not an object' };
  const id = str(entry.id)?.toLowerCase() ?? null;
  if (id === null || !/^[a-z]{2}\d{6}$/.test(id))
    return { sourceId: id, reason: `bad storm id ${JSON.stringify(entry.id)}` };
  const windKt = num(entry.intensity);
  if (windKt === null) return { sourceId: id, reason: 'no intensity (kt)' };
  const lat = num(entry.latitudeNumeric);
  const lng = num(entry.longitudeNumeric);
  if (lat === null || lng === null || Math.abs(lat) > 90 || Math.abs(lng) > 180)
    return { sourceId: id, reason: 'bad or missing position' };
  const publicAdvisory = product(entry.publicAdvisory);
  const updatedAt = isoOrNull(entry.lastUpdate) ?? publicAdvisory?.issuance ?? null;
  if (updatedAt === null) return { sourceId: id, reason: 'no lastUpdate time' };
  const pressureMb = num(entry.pressure);
  const classification = str(entry.classification)?.toUpperCase() ?? '';
  const name = str(entry.name);
  const observations = fixObservations(updatedAt, windKt, pressureMb, lat, lng);
  return {
    source: 'nhc',
    sourceId: id,
    sourceUrl: publicAdvisory?.url ?? ctx.sourceUrl,
    title: stormTitle(typeName(classification), name, id),
    eventType: 'hurricane',
    severity: windKt,
    severityLabel: saffirSimpsonLabel(windKt),
    // The file gives no genesis time: the advisory time stands in (ingest should keep the earliest seen).
    startedAt: updatedAt,
    sourceUpdatedAt: updatedAt,
    lat,
    lng,
    confidence: ADVISORY_CONFIDENCE,
    signals: { winding: WINDING_TYPES.has(classification) },
    ringInput: {
      kind: 'hurricane',
      windRadiiNm: {},
      maxWindKt: windKt,
      ...(pressureMb !== null ? { pressureMb } : {}),
    },
    observations,
    details: {
      feed: 'current_storms',
      atcf_id: id,
      basin: id.slice(0, 2).toUpperCase(),
      bin_number: str(entry.binNumber),
      name,
      classification,
      max_wind_kt: windKt,
      pressure_mb: pressureMb,
      movement_dir_deg: num(entry.movementDir),
      // NHC's public advisories state forward speed in mph; the JSON field carries no unit of its own.
      movement_speed: num(entry.movementSpeed),
      advisory_number: publicAdvisory?.advNum ?? null,
      public_advisory_url: publicAdvisory?.url ?? null,
      forecast_advisory_url: product(entry.forecastAdvisory)?.url ?? null,
      forecast_discussion_url: product(entry.forecastDiscussion)?.url ?? null,
    },
  };
}
