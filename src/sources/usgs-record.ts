/**
 * One USGS event (from either the GeoJSON or the CSV summary feed) -> a SourceRecord, or the reason it
 * is skipped. Mapping, labels, region and confidence rules are documented in docs/sources/usgs-earthquakes.md.
 */
import type { SkippedRecord, SourceRecord } from '../domain/event.js';

/** The fields both wire formats share (ComCat event terms); null where a format or event lacks them. */
export interface UsgsQuake {
  id: string;
  mag: number | null;
  magType: string | null;
  timeMs: number;
  updatedMs: number;
  lat: number;
  lng: number;
  depthKm: number | null;
  place: string | null;
  type: string | null;
  status: string | null;
  url: string | null;
  title: string | null;
  net: string | null;
  nst: number | null;
  gapDeg: number | null;
  dminDeg: number | null;
  rms: number | null;
  /** GeoJSON only. */
  extra: Record<string, unknown>;
}

/** Depth used for the rings when the feed gives none (km); the IPE tables are computed at 10 km. */
const DEFAULT_DEPTH_KM = 10;

/**
 * Magnitude classes as USGS and Michigan Tech's UPSeis publish them ("Earthquake Magnitude Scale"):
 * great ≥ 8, major 7–7.9, strong 6–6.9, moderate 5–5.9, light 4–4.9, minor < 4 (their "minor 3–3.9"
 * and "micro" merged, as the feed's many M<3 events need a label too).
 */
export function magnitudeClass(magnitude: number): string {
  // Classify the magnitude as USGS reports it (one decimal), so "M 5.0" in a title is never "Light".
  const mag = Math.round(magnitude * 10) / 10;
  if (mag >= 8) return 'Great';
  if (mag >= 7) return 'Major';
  if (mag >= 6) return 'Strong';
  if (mag >= 5) return 'Moderate';
  if (mag >= 4) return 'Light';
  return 'Minor';
}

/**
 * 'east' = stable central and eastern North America, where AWW14's ENA term applies: 24°–55° N and
 * 105°–52° W, roughly the NSHM CEUS/WUS boundary along the Rocky Mountain front, out to Newfoundland.
 * Everything else (WUS, Alaska, Hawaii, Puerto Rico, the rest of the world) is 'west' (active crust).
 */
export function regionOf(lat: number, lng: number): 'east' | 'west' {
  return lat >= 24 && lat <= 55 && lng >= -105 && lng <= -52 ? 'east' : 'west';
}

/**
 * Confidence 0..1: reviewed by a seismologist 1.0, automatic 0.7, anything else 0.5; then × 0.8 when the
 * azimuthal gap exceeds 180° (ComCat: the larger the gap, the less reliable the location) and × 0.9 when
 * fewer than 5 stations located it. Rounded to two decimals.
 */
export function confidenceOf(q: UsgsQuake): number {
  let c = q.status === 'reviewed' ? 1.0 : q.status === 'automatic' ? 0.7 : 0.5;
  if (q.gapDeg !== null && q.gapDeg > 180) c *= 0.8;
  if (q.nst !== null && q.nst < 5) c *= 0.9;
  return Math.round(c * 100) / 100;
}

export function quakeToRecord(q: UsgsQuake): SourceRecord | SkippedRecord {
  // USGS `type` also carries quarry blasts, explosions, ice quakes, sonic booms...: not earthquakes, so
  // they would make false shaking rings. An absent type is taken as 'earthquake' (older CSV exports).
  if (!q.id) return { sourceId: null, reason: 'no USGS event id' };
  const type = q.type ?? 'earthquake';
  if (type !== 'earthquake') return { sourceId: q.id, reason: `not an earthquake (${type})` };
  if (q.mag === null || !Number.isFinite(q.mag)) return { sourceId: q.id, reason: 'no magnitude' };
  if (!(Math.abs(q.lat) <= 90 && Math.abs(q.lng) <= 180)) {
    return { sourceId: q.id, reason: `bad coordinates (lat ${q.lat}, lng ${q.lng})` };
  }
  if (!Number.isFinite(q.timeMs)) return { sourceId: q.id, reason: 'bad origin time' };
  const startedAt = new Date(q.timeMs).toISOString();
  const sourceUpdatedAt = Number.isFinite(q.updatedMs) ? new Date(q.updatedMs).toISOString() : startedAt;
  const region = regionOf(q.lat, q.lng);
  return {
    source: 'usgs-earthquakes',
    sourceId: q.id,
    sourceUrl: q.url ?? `https://earthquake.usgs.gov/earthquakes/eventpage/${q.id}`,
    title: q.title ?? (q.place ? `M ${q.mag.toFixed(1)} - ${q.place}` : `M ${q.mag.toFixed(1)}`),
    eventType: 'earthquake',
    severity: q.mag,
    severityLabel: magnitudeClass(q.mag),
    startedAt,
    sourceUpdatedAt,
    lat: q.lat,
    lng: q.lng,
    confidence: confidenceOf(q),
    signals: {},
    ringInput: { kind: 'earthquake', magnitude: q.mag, depthKm: q.depthKm ?? DEFAULT_DEPTH_KM, region },
    observations: [
      { observedAt: sourceUpdatedAt, kind: 'magnitude', value: q.mag, unit: 'mag', lat: q.lat, lng: q.lng },
    ],
    details: {
      depth_km: q.depthKm,
      place: q.place,
      mag_type: q.magType,
      usgs_status: q.status,
      net: q.net,
      nst: q.nst,
      gap_deg: q.gapDeg,
      dmin_deg: q.dminDeg,
      rms_s: q.rms,
      region,
      ...q.extra,
    },
  };
}

export function isSkipped(r: SourceRecord | SkippedRecord): r is SkippedRecord {
  return 'reason' in r;
}
