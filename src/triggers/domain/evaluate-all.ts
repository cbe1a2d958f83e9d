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

interface Box { minLat: number; maxLat: number; minLng: number; maxLng: number }

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

/** True when the site's reach (km) can meet the box. Conservative near the poles and the antimeridian. */
function mayReach(box: Box, lat: number, lng: number, reachKm: number): boolean {
  const dLat = reachKm / KM_PER_DEG_LAT;
  if (lat + dLat < box.minLat || lat - dLat > box.maxLat) return false;
  const cos = Math.cos((Math.min(89, Math.abs(lat) + dLat) * Math.PI) / 180);
  const dLng = reachKm / (KM_PER_DEG_LAT * Math.max(cos, 0.01));
  if (dLng >= 180 || box.minLng - dLng < -180 || box.maxLng + dLng > 180) return true;
  return !(lng + dLng < box.minLng || lng - dLng > box.maxLng);
}

export function evaluateAll(
  triggers: TriggerSpec[],
  events: LiveEventInput[],
  entered: Map<string, EnteredGroup[]>,
  radiusScale: () => number,
): PairResult[] {
  const boxed = events.map((e) => ({ e, box: boxOf(e.fixes.length > 0 ? e.fixes : Object.values(e.readings).flat()) }));
  const out: PairResult[] = [];
  for (const t of triggers) {
    const type = t.threshold_type;
    if (type !== 'industry_loss_usd') {
      const track = type === 'wind_speed_kt' || type === 'central_pressure_mb';
      const reachKm = track ? t.radius_km + STORM_WATCH_KM : t.radius_km;
      for (const { e, box } of boxed) {
        if (e.event_type !== t.peril || !box || !mayReach(box, t.lat, t.lng, reachKm)) continue;
        const inputs: EvalInputs | null = track
          ? e.fixes.length > 0 ? { kind: 'track', radius_scale: radiusScale(), fixes: e.fixes } : null
          : readingsInputs(e, type);
        if (!inputs) continue;
        const evaluation = evaluate(t, inputs);
        // Point events count only inside the circle; storms within the watch distance are recorded even when clear.
        if (evaluation.distance_km === null || evaluation.distance_km > reachKm) continue;
        out.push({ trigger: t, event_key: e.event_id, event_id: e.event_id, source: e.source, source_id: e.source_id, source_version: e.source_version, inputs, evaluation });
      }
    }
    for (const g of entered.get(t.id) ?? []) {
      const inputs: EvalInputs = { kind: 'entered', readings: g.readings };
      out.push({ trigger: t, event_key: g.event_key, event_id: g.event_id, source: 'trigger-observe', source_id: g.source, source_version: `entered:${g.readings.map((r) => r.id).sort().join(',')}`, inputs, evaluation: evaluate(t, inputs) });
    }
  }
  return out;
}

function readingsInputs(e: LiveEventInput, type: 'magnitude' | 'gauge_stage_ft' | 'storm_surge_ft'): EvalInputs | null {
  const readings = e.readings[type];
  return readings && readings.length > 0 ? { kind: 'readings', readings } : null;
}
