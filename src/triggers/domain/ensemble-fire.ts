/**
 * Probability to trigger now (docs/basis-risk.md#probability-to-trigger-now), pure: the share of a live
 * storm's ensemble members (its observed track, then one perturbed remaining forecast each; src/event-loss/
 * hurricane-ensemble.ts) in which a trigger's own rule fires. A member is read as the live rule reads the
 * storm: the observed fixes exactly as stored (with the record's RMW and wind radii where it gives them),
 * then the member's forecast positions, wind and pressure, carrying the latest fix's RMW when the record
 * gave one (otherwise the rule's statistical profile, as for any fix without one).
 */
import type { Track } from '../../models/hurricane/domain/track.js';
import { firesAt, siteValue, type TriggerCriteria } from './rules.js';
import type { TrackFix } from './track.js';

const HOUR_MS = 3_600_000;

/** A member's track as the rule's fixes: the observed ones as given, then the member's forecast part. */
export function memberFixes(observed: readonly TrackFix[], member: Track): TrackFix[] {
  const t0 = Date.parse(observed[0].at);
  const last = observed[observed.length - 1];
  const forecast = member.fixes.slice(observed.length).map((f): TrackFix => ({
    at: new Date(t0 + Math.round(f.hours * HOUR_MS)).toISOString().replace('.000Z', 'Z'),
    lat: f.lat,
    lng: f.lng,
    windKt: f.windKt,
    pressureMb: f.pressureMb,
    ...(last.rmwNm !== undefined ? { rmwNm: last.rmwNm } : {}),
  }));
  return [...observed, ...forecast];
}

export interface FireShare {
  members: number;
  firing: number;
  probability: number;
}

export function fireShare(t: TriggerCriteria, members: readonly TrackFix[][], radiusScale: number): FireShare {
  let firing = 0;
  for (const fixes of members)
    if (firesAt(t.threshold_type, siteValue(t, { kind: 'track', radius_scale: radiusScale, fixes }), t.threshold_value))
      firing++;
  return { members: members.length, firing, probability: members.length ? firing / members.length : 0 };
}
