/**
 * NWS active alerts (api.weather.gov `/alerts/active`, GeoJSON with CAP 1.2 fields). One record per
 * alert message that is a catastrophe peril and can be located; docs/sources/nws-alerts.md lists the
 * mappings and the choices (skips, Cancel, placeholder times, county approximation).
 */
import type { ParseResult, SkippedRecord, SourceRecord } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import type { ParseContext, SourceModule } from './types.js';
import { CAP_CONFIDENCE, CAP_SEVERITY, perilOf } from './nws-events.js';
import { locateAlert } from './nws-geometry.js';
import { nwsTime } from './nws-time.js';
import { readRecord } from './guard.js';

type Props = Record<string, unknown>;

/** Threat tags of storm-based warnings (NWS impact-based warnings) kept in details as the NWS sends them. */
const KEPT_PARAMETERS = [
  'maxWindGust',
  'maxHailSize',
  'windThreat',
  'hailThreat',
  'tornadoDetection',
  'tornadoDamageThreat',
  'thunderstormDamageThreat',
  'flashFloodDetection',
  'flashFloodDamageThreat',
  'waterspoutDetection',
  'VTEC',
  'NWSheadline',
];

export const nwsAlerts: SourceModule = {
  id: 'nws-alerts',
  officialUrl: 'https://api.weather.gov/alerts/active?status=actual',
  accept: 'application/geo+json',
  description: 'NWS watches, warnings and advisories for catastrophe perils (api.weather.gov, CAP GeoJSON)',
  parse: parseNwsAlerts,
};

export function parseNwsAlerts(body: string, ctx: ParseContext): ParseResult {
  const records: SourceRecord[] = [];
  const skipped: SkippedRecord[] = [];
  const seen = new Set<string>();
  for (const f of featuresOf(body, ctx.sourceUrl)) {
    const out = readRecord(
      () => toRecord(f, ctx, seen),
      () => (f as { properties?: { id?: unknown } }).properties?.id,
    );
    if ('reason' in out) skipped.push(out);
    else records.push(out);
  }
  return { records, skipped };
}

function featuresOf(body: string, where: string): Props[] {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    throw new CatintelError(
      'invalid_input',
      `${where}: not JSON; expected the NWS alerts GeoJSON (Accept: application/geo+json)`,
    );
  }
  const d = doc as Props | null;
  const features =
    d?.type === 'FeatureCollection' && Array.isArray(d.features)
      ? (d.features as unknown[])
      : d?.type === 'Feature'
        ? [d]
        : null;
  if (!features)
    throw new CatintelError(
      'invalid_input',
      `${where}: not a GeoJSON FeatureCollection; expected the NWS alerts GeoJSON`,
    );
  const objects = features.filter((f): f is Props => typeof f === 'object' && f !== null);
  if (features.length && !objects.some(isCapFeature)) {
    throw new CatintelError(
      'invalid_input',
      `${where}: GeoJSON without CAP alert properties (event, areaDesc, sent); is this another feed than api.weather.gov/alerts?`,
    );
  }
  return objects;
}

function isCapFeature(f: Props): boolean {
  const p = f.properties as Props | null;
  return !!p && typeof p.event === 'string' && typeof p.areaDesc === 'string' && 'sent' in p;
}

function toRecord(f: Props, ctx: ParseContext, seen: Set<string>): SourceRecord | SkippedRecord {
  const p = (f.properties ?? {}) as Props;
  const featureUrl = typeof f.id === 'string' ? f.id : null;
  const id = str(p.id) ?? (featureUrl ? featureUrl.split('/').pop()! : null);
  if (!id) return { sourceId: null, reason: 'alert without an id' };
  if (seen.has(id)) return { sourceId: id, reason: 'duplicate of an earlier feature in the same body' };
  seen.add(id);
  if (!isCapFeature(f)) return { sourceId: id, reason: 'not a CAP alert feature (no event/areaDesc/sent)' };
  const event = String(p.event);
  if (p.status !== 'Actual') return { sourceId: id, reason: `not an actual alert (status ${String(p.status)})` };
  const eventType = perilOf(event);
  if (!eventType) return { sourceId: id, reason: `not a catastrophe peril (${event})` };
  const [sent, effective, onset, expires, ends] = ['sent', 'effective', 'onset', 'expires', 'ends'].map((k) =>
    nwsTime(p[k], ctx.now),
  );
  if (!sent) return { sourceId: id, reason: `unreadable sent time (${String(p.sent)})` };
  const geocode = (p.geocode ?? {}) as Props;
  const where = locateAlert(f.geometry, geocode.SAME);
  if (!where.ok) return { sourceId: id, reason: where.reason };

  const areaDesc = String(p.areaDesc);
  const severityLabel = str(p.severity) ?? 'Unknown';
  const certainty = str(p.certainty) ?? 'Unknown';
  const messageType = str(p.messageType) ?? 'Alert';
  const expiresAt = ends ?? expires;
  const references = Array.isArray(p.references)
    ? p.references.map((r) => str((r as Props)?.identifier)).filter((s): s is string => !!s)
    : [];
  return {
    source: 'nws-alerts',
    sourceId: id,
    sourceUrl: featureUrl ?? `https://api.weather.gov/alerts/${encodeURIComponent(id)}`,
    title: str(p.headline) ?? `${event} — ${clip(areaDesc, 160)}`,
    eventType,
    severity: CAP_SEVERITY[severityLabel] ?? 0,
    severityLabel,
    startedAt: onset ?? effective ?? sent,
    sourceUpdatedAt: sent,
    lat: where.lat,
    lng: where.lng,
    confidence: CAP_CONFIDENCE[certainty] ?? CAP_CONFIDENCE.Unknown,
    // A Cancel message says the hazard is over; ingest can also end the alerts it references.
    signals: messageType === 'Cancel' ? { expiresAt, endedAt: sent } : { expiresAt },
    ringInput: {
      kind: 'polygon',
      geometry: where.geometry,
      label: where.locatedBy === 'polygon' ? `${event} area` : `${event} (counties named by the alert)`,
    },
    observations: [],
    details: {
      nws_event: event,
      area_desc: areaDesc,
      sender_name: str(p.senderName),
      message_type: messageType,
      urgency: str(p.urgency),
      certainty,
      effective,
      onset,
      expires,
      ends,
      located_by: where.locatedBy,
      counties: where.counties,
      unresolved_same: where.unresolvedSame,
      ugc: Array.isArray(geocode.UGC) ? geocode.UGC : [],
      same: Array.isArray(geocode.SAME) ? geocode.SAME : [],
      supersedes: references,
      parameters: keptParameters(p.parameters),
      description: str(p.description),
      instruction: str(p.instruction),
    },
  };
}

function keptParameters(raw: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (raw && typeof raw === 'object') for (const k of KEPT_PARAMETERS) if (k in raw) out[k] = (raw as Props)[k];
  return out;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
