/**
 * The status arc of an event (GET /events/{id}/timeline): its stored observations (containment and acres,
 * wind and pressure per fix, gauge readings, magnitude revisions) and its status changes with their reason,
 * oldest first, each with the change since the previous point of its kind. Pure.
 */
import { AGE_RULES } from '../../domain/lifecycle.js';
import type { EventType } from '../../domain/event.js';

export interface TimelineObservation {
  kind: string;
  observed_at: string;
  value: number;
  unit: string;
  lat: number | null;
  lng: number | null;
  ingested_at: string;
}

export interface TimelineEventFacts {
  event_type: EventType;
  started_at: string;
  updated_at: string;
  monitoring_from: string | null;
  /** Ended at, only when it is at or before now. */
  ended_at: string | null;
  details: Record<string, unknown>;
}

export type TimelinePoint =
  | { at: string; kind: 'status'; status: 'active' | 'monitoring' | 'ended'; reason: string }
  | {
      at: string;
      kind: string;
      value: number;
      unit: string;
      change: number | null;
      lat: number | null;
      lng: number | null;
      ingested_at: string;
    };

const HOUR_MS = 3_600_000;

export function statusReasons(
  e: TimelineEventFacts,
  now: string,
): { at: string; status: 'active' | 'monitoring' | 'ended'; reason: string }[] {
  const rule = AGE_RULES[e.event_type];
  const out: { at: string; status: 'active' | 'monitoring' | 'ended'; reason: string }[] = [];
  out.push({
    at: e.started_at,
    status: 'active',
    reason:
      e.event_type === 'earthquake' ? 'origin time of the main shock' : 'start of the event as the source gives it',
  });
  const nowMs = Date.parse(now);
  const alertEnd =
    typeof e.details.ends === 'string'
      ? e.details.ends
      : typeof e.details.expires === 'string'
        ? e.details.expires
        : null;
  if (e.monitoring_from && Date.parse(e.monitoring_from) <= nowMs) {
    const ref = rule.from === 'start' ? e.started_at : e.updated_at;
    const byAge = Date.parse(ref) + rule.activeHours * HOUR_MS === Date.parse(e.monitoring_from);
    const byAlert = alertEnd !== null && Date.parse(alertEnd) === Date.parse(e.monitoring_from);
    const reason = byAlert
      ? 'the alert expired (its own end time)'
      : byAge
        ? `age rule: ${rule.activeHours} h after the ${rule.from === 'start' ? 'origin' : 'latest source update'} (docs/lifecycle.md)`
        : 'the source signalled the event is winding down (containment at or above 90 %, gauge below flood stage, post-tropical fix)';
    out.push({ at: e.monitoring_from, status: 'monitoring', reason });
  }
  if (e.ended_at && Date.parse(e.ended_at) <= nowMs) {
    const byAge =
      e.monitoring_from !== null &&
      Date.parse(e.monitoring_from) + rule.monitoringHours * HOUR_MS === Date.parse(e.ended_at);
    const reason = byAge
      ? `age rule: monitored ${rule.monitoringHours} h with no newer signal (docs/lifecycle.md)`
      : 'the source signalled the end (final advisory, fire out, gauge below action stage, alert cancelled or superseded)';
    out.push({ at: e.ended_at, status: 'ended', reason });
  }
  return out;
}

export function timelineOf(e: TimelineEventFacts, obs: TimelineObservation[], now: string): TimelinePoint[] {
  const last = new Map<string, number>();
  const points: TimelinePoint[] = [];
  for (const o of [...obs].sort(
    (a, b) => Date.parse(a.observed_at) - Date.parse(b.observed_at) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0),
  )) {
    const prev = last.get(o.kind);
    points.push({
      at: o.observed_at,
      kind: o.kind,
      value: o.value,
      unit: o.unit,
      change: prev === undefined ? null : round3(o.value - prev),
      lat: o.lat,
      lng: o.lng,
      ingested_at: o.ingested_at,
    });
    last.set(o.kind, o.value);
  }
  for (const s of statusReasons(e, now)) points.push({ at: s.at, kind: 'status', status: s.status, reason: s.reason });
  // Oldest first; at the same instant a status change comes before the readings it frames.
  return points.sort(
    (a, b) => Date.parse(a.at) - Date.parse(b.at) || (a.kind === 'status' ? -1 : 0) - (b.kind === 'status' ? -1 : 0),
  );
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;
