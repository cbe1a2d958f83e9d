/**
 * Saved locations against the live rings (GET /locations/exposure): for each of an owner's locations, the live
 * events with a ring within the location's radius_km (distance 0 when the location is inside the ring), the
 * rings innermost first. A location with perils set sees only events of those types.
 */
import type { Store } from '../store/db.js';
import { degreesAround, distanceToAreaKm } from '../portfolios/domain/geometry.js';
import { eventHeaderOf, liveEventsSoFar, type EventHeader, type ExposureRing } from '../portfolios/live-rings.js';
import type { RingFields } from '../store/events-read.js';
import type { SavedLocation } from './store.js';

export interface RingReach extends Omit<RingFields, 'ring_id' | 'radius_km'> {
  /** For a swath ring (so far), the event's current ring of the same threshold, null when it has none. */
  ring_id: string | null;
  radius_km: number | null;
  distance_km: number;
  inside: boolean;
}

export interface EventReach extends EventHeader {
  /** The rings reaching the location now, the one reaching nearest the centre (the lowest ordinal) first; empty when only the swath did. */
  rings: RingReach[];
  /** The swath up to the clock (the union of the wind rings over the track so far) reaching the location. */
  so_far: { rings: RingReach[] };
}

export interface LocationExposure {
  location: SavedLocation;
  events: EventReach[];
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

type Located = SavedLocation & { dLat: number; dLng: number };

/** The rings of a list within the location's radius (distance 0 inside), in their order. */
function reaching(l: Located, rings: ExposureRing[]): RingReach[] {
  const out: RingReach[] = [];
  for (const r of rings) {
    const a = r.area;
    if (l.lat + l.dLat < a.minLat || l.lat - l.dLat > a.maxLat) continue;
    if (l.dLng < 180 && (l.lng + l.dLng < a.minLng || l.lng - l.dLng > a.maxLng)) continue;
    const d = distanceToAreaKm(l.lng, l.lat, a);
    if (d > l.radius_km) continue;
    out.push({
      ring_id: r.ring_id,
      ordinal: r.ordinal,
      kind: r.kind,
      label: r.label,
      threshold: r.threshold,
      unit: r.unit,
      radius_km: r.radius_km,
      distance_km: r3(d),
      inside: d === 0,
    });
  }
  return out;
}

export async function locationsExposure(
  db: Store,
  locations: SavedLocation[],
  now: string,
): Promise<LocationExposure[]> {
  if (locations.length === 0) return [];
  const boxes = locations.map((l) => ({ l, ...degreesAround(l.lat, l.radius_km) }));
  const wide = boxes.some((b) => b.dLng >= 180);
  const box: [number, number, number, number] | undefined = wide
    ? undefined
    : [
        Math.min(...boxes.map((b) => b.l.lng - b.dLng)),
        Math.min(...boxes.map((b) => b.l.lat - b.dLat)),
        Math.max(...boxes.map((b) => b.l.lng + b.dLng)),
        Math.max(...boxes.map((b) => b.l.lat + b.dLat)),
      ];
  const live = await liveEventsSoFar(db, now, box);
  return boxes.map(({ l, dLat, dLng }) => {
    const events: EventReach[] = [];
    const located = { ...l, dLat, dLng };
    for (const { event: e, rings, swath } of live) {
      if (l.perils.length > 0 && !l.perils.includes(e.event_type)) continue;
      const reach = reaching(located, rings);
      const soFar = reaching(located, swath);
      if (reach.length === 0 && soFar.length === 0) continue;
      events.push({ ...eventHeaderOf(e), rings: reach, so_far: { rings: soFar } });
    }
    // Events the location is deepest inside first: inside before near, then the innermost ring reached; now before so far.
    const key = (x: EventReach) => {
      const r = x.rings[0] ?? x.so_far.rings[0];
      return [x.rings.length > 0 ? 0 : 1, r.inside ? 0 : 1, r.ordinal, r.distance_km] as const;
    };
    events.sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return ka[0] - kb[0] || ka[1] - kb[1] || ka[3] - kb[3] || ka[2] - kb[2] || a.event_id.localeCompare(b.event_id);
    });
    return { location: l, events };
  });
}
