/**
 * The status lifecycle of docs/contract.md#events: active -> monitoring -> ended. Ingest turns a record's own
 * signals and the per-peril age rules below into two instants, `monitoringFrom` and `endedAt`; the
 * status at any moment `now` is then a pure comparison, so events age into monitoring and out of the
 * live feed without a background job, and CATINTEL_NOW replays it exactly. docs/lifecycle.md explains.
 */
import type { EventStatus, EventType, LifecycleSignals } from './event.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Per-peril age rules, in hours after the reference instant (see docs/lifecycle.md for the reasons). */
export interface AgeRule {
  /** Measured from: 'start' (origin time) or 'update' (the source's latest version). */
  from: 'start' | 'update';
  activeHours: number;
  /** Monitoring lasts this long after the active period ends, then the event is ended. */
  monitoringHours: number;
}

export const AGE_RULES: Record<EventType, AgeRule> = {
  // Shaking is over in minutes; the aftershock hazard is highest in the first days (Reasenberg & Jones
  // 1989: rate decays ~1/t), so a quake is active for a day and monitored for a week.
  earthquake: { from: 'start', activeHours: 24, monitoringHours: 6 * 24 },
  // Advisories come every 6 h; a storm missing two cycles is no longer being advised on.
  hurricane: { from: 'update', activeHours: 12, monitoringHours: 36 },
  // WFIGS updates daily at least while staffed; a fire silent for 3 days is winding down.
  wildfire: { from: 'update', activeHours: 72, monitoringHours: 11 * 24 },
  // Gauges report every 15 min; a day without a reading means the site is not reporting.
  flood: { from: 'update', activeHours: 24, monitoringHours: 24 },
  tornado: { from: 'update', activeHours: 6, monitoringHours: 18 },
  severe_storm: { from: 'update', activeHours: 6, monitoringHours: 18 },
  winter_storm: { from: 'update', activeHours: 24, monitoringHours: 24 },
  extreme_heat: { from: 'update', activeHours: 24, monitoringHours: 24 },
  tsunami: { from: 'update', activeHours: 12, monitoringHours: 36 },
  volcano: { from: 'update', activeHours: 72, monitoringHours: 7 * 24 },
};

export interface LifecycleInput {
  eventType: EventType;
  startedAt: string;
  sourceUpdatedAt: string;
  signals: LifecycleSignals;
}

export interface Lifecycle {
  monitoringFrom: string;
  endedAt: string | null;
}

export function lifecycleOf(e: LifecycleInput): Lifecycle {
  const rule = AGE_RULES[e.eventType];
  const base = Date.parse(rule.from === 'start' ? e.startedAt : e.sourceUpdatedAt);
  let monitoringFrom = base + rule.activeHours * HOUR_MS;
  let endedAt = monitoringFrom + rule.monitoringHours * HOUR_MS;

  // An alert's own expiry ends it: active until it expires, monitored for the age rule's tail.
  if (e.signals.expiresAt) {
    const expires = Date.parse(e.signals.expiresAt);
    monitoringFrom = expires;
    endedAt = expires + Math.min(rule.monitoringHours * HOUR_MS, DAY_MS);
  }
  // The source says it is winding down: monitoring from its latest version on.
  if (e.signals.winding) monitoringFrom = Math.min(monitoringFrom, Date.parse(e.sourceUpdatedAt));
  // The source says it is over: ended then, whatever the age rule says.
  if (e.signals.endedAt) {
    endedAt = Date.parse(e.signals.endedAt);
    monitoringFrom = Math.min(monitoringFrom, endedAt);
  }
  return { monitoringFrom: new Date(monitoringFrom).toISOString(), endedAt: new Date(endedAt).toISOString() };
}

export function statusAt(l: Lifecycle, now: Date): EventStatus {
  const t = now.getTime();
  if (l.endedAt && Date.parse(l.endedAt) <= t) return 'ended';
  if (Date.parse(l.monitoringFrom) <= t) return 'monitoring';
  return 'active';
}
