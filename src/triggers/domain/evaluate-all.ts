/**
 * One evaluation round, pure: every active trigger against every live event of its peril within reach,
 * plus the values entered for it by hand. Returns the (trigger, event) pairs that have something to say,
 * with the inputs and the evaluation; the caller stores what is new (src/triggers/run.ts). A bounding-box
 * prefilter keeps 10,000 triggers × 1,000 events cheap: only pairs whose boxes meet are evaluated.
 */
import type { EventType } from '../../domain/event.js';
import { evaluate, type EnteredReading, type EvalInputs, type Evaluation, type PointReading } from './rules.js';
import type { TrackFix } from './track.js';
import type { TriggerSpec } from './types.js';

export interface LiveEventInput {
  event_id: string;
  source: string;
  source_id: string;
  title: string;
  event_type: EventType;
  /** The event record's content hash: the version of the source record the inputs come from. */
  source_version: string;
  /** Tropical cyclones: best-track or advisory fixes up to now, oldest first. */
  fixes: TrackFix[];
  /** Point readings up to now by kind: magnitude (epicentre), gauge_stage_ft and storm_surge_ft (gauge). */
  readings: Partial<Record<'magnitude' | 'gauge_stage_ft' | 'storm_surge_ft', PointReading[]>>;
}

/** Values entered with `trigger observe`, per trigger, grouped by the event they name (or their source). */
export interface EnteredGroup {
  event_key: string;
  event_id: string | null;
  source: string;
  readings: EnteredReading[];
}

export interface PairResult {
  trigger: TriggerSpec;
  event_key: string;
  event_id: string | null;
  source: string;
  source_id: string;
  source_version: string;
  inputs: EvalInputs;
  evaluation: Evaluation;
}

/**
 * How far beyond its circle a trigger watches a storm (km): a storm whose track comes this close is
 * recorded (clear, with its nearest approach) so the history shows it was considered. 300 km is the
 * order of a large hurricane's 34-kt wind radius (Ian's reached 420 nm at most, 150 nm typically).
 */
export const STORM_WATCH_KM = 300;
const KM_PER_DEG_LAT = 111.2;

interface Box {
  minLat: number;
  maxLat: number;
  minLng: number;
  maxLng: number;
}

function boxOf(points: { lat: number; lng: number }[]): Box | null {
  if (points.length === 0) return null;
  const b = { minLat: Infinity, maxLat: -Infinity, minLng: Infinity, maxLng: -Infinity };
  for (const p of points) {
    if (p.lat < b.minLat) b.minLat = p.lat;
    if (p.lat > b.maxLat) b.maxLat = p.lat;
    if (p.lng < b.minLng) b.minLng = p.lng;
    if (p.lng > b.maxLng) b.maxLng = p.lng;
  }
  return b;
}

/** The site's reach as degrees of latitude and longitude. Conservative near the poles; null = any longitude. */
function reachDeg(lat: number, reachKm: number): { dLat: number; dLng: number | null } {
  const dLat = reachKm / KM_PER_DEG_LAT;
  const cos = Math.cos((Math.min(89, Math.abs(lat) + dLat) * Math.PI) / 180);
  const dLng = reachKm / (KM_PER_DEG_LAT * Math.max(cos, 0.01));
  return { dLat, dLng: dLng >= 90 ? null : dLng };
}

/** True when the reach can meet the box (a box near the antimeridian always may). */
function mayReach(box: Box, lat: number, lng: number, r: { dLat: number; dLng: number | null }): boolean {
  if (lat + r.dLat < box.minLat || lat - r.dLat > box.maxLat) return false;
  if (r.dLng === null || box.minLng - r.dLng < -180 || box.maxLng + r.dLng > 180) return true;
  return !(lng + r.dLng < box.minLng || lng - r.dLng > box.maxLng);
}

export function evaluateAll(
  triggers: TriggerSpec[],
  events: LiveEventInput[],
  entered: Map<string, EnteredGroup[]>,
  radiusScale: () => number,
): PairResult[] {
  // Events by peril, each with its box, sorted by the box's south edge: a trigger looks only at events of
  // its own peril whose boxes start within its latitude band (binary search), widened by the tallest box.
  const byPeril = new Map<EventType, { items: Array<{ e: LiveEventInput; box: Box }>; tallest: number }>();
  for (const e of events) {
    const box = boxOf(e.fixes.length > 0 ? e.fixes : Object.values(e.readings).flat());
    if (!box) continue;
    const group = byPeril.get(e.event_type) ?? { items: [], tallest: 0 };
    byPeril.set(e.event_type, group);
    group.items.push({ e, box });
    group.tallest = Math.max(group.tallest, box.maxLat - box.minLat);
  }
  for (const g of byPeril.values()) g.items.sort((a, b) => a.box.minLat - b.box.minLat);
  const out: PairResult[] = [];
  for (const t of triggers) {
    const type = t.threshold_type;
    if (type !== 'industry_loss_usd') {
      const track = type === 'wind_speed_kt' || type === 'central_pressure_mb';
      const reachKm = track ? t.radius_km + STORM_WATCH_KM : t.radius_km;
      const reach = reachDeg(t.lat, reachKm);
      const group = byPeril.get(t.peril);
      const items = group?.items ?? [];
      const northEdge = t.lat + reach.dLat;
      for (
        let i = firstFrom(items, t.lat - reach.dLat - (group?.tallest ?? 0));
        i < items.length && items[i].box.minLat <= northEdge;
        i++
      ) {
        const { e, box } = items[i];
        if (!mayReach(box, t.lat, t.lng, reach)) continue;
        const inputs: EvalInputs | null = track
          ? e.fixes.length > 0
            ? { kind: 'track', radius_scale: radiusScale(), fixes: e.fixes }
            : null
          : readingsInputs(e, type);
        if (!inputs) continue;
        const evaluation = evaluate(t, inputs);
        // Point events count only inside the circle; storms within the watch distance are recorded even when clear.
        if (evaluation.distance_km === null || evaluation.distance_km > reachKm) continue;
        out.push({
          trigger: t,
          event_key: e.event_id,
          event_id: e.event_id,
          source: e.source,
          source_id: e.source_id,
          source_version: e.source_version,
          inputs,
          evaluation,
        });
      }
    }
    for (const g of entered.get(t.id) ?? []) {
      const inputs: EvalInputs = { kind: 'entered', readings: g.readings };
      out.push({
        trigger: t,
        event_key: g.event_key,
        event_id: g.event_id,
        source: 'trigger-observe',
        source_id: g.source,
        source_version: `entered:${g.readings
          .map((r) => r.id)
          .sort()
          .join(',')}`,
        inputs,
        evaluation: evaluate(t, inputs),
      });
    }
  }
  return out;
}

/** Index of the first item whose box starts at or north of lat (items sorted by box.minLat). */
function firstFrom(items: Array<{ box: Box }>, lat: number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (items[mid].box.minLat < lat) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function readingsInputs(e: LiveEventInput, type: 'magnitude' | 'gauge_stage_ft' | 'storm_surge_ft'): EvalInputs | null {
  const readings = e.readings[type];
  return readings && readings.length > 0 ? { kind: 'readings', readings } : null;
}
