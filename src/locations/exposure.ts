/**
 * Saved locations against the live rings (GET /locations/exposure): for each of an owner's locations, the live
 * events with a ring within the location's radius_km (distance 0 when the location is inside the ring), the
 * rings innermost first. A location with perils set sees only events of those types.
 */
import type { Store } from '../store/db.js';
import { degreesAround, distanceToAreaKm } from '../portfolios/domain/geometry.js';
import { eventHeaderOf, liveEventsWithRings, type EventHeader } from '../portfolios/live-rings.js';
import type { RingFields } from '../store/events-read.js';
import type { SavedLocation } from './store.js';

export interface RingReach extends RingFields {
  distance_km: number;
  inside: boolean;
}

export interface EventReach extends EventHeader {
  /** The ring reaching nearest the centre (the lowest ordinal among rings), first. */
  rings: RingReach[];
}

export interface LocationExposure {
  location: SavedLocation;
  events: EventReach[];
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

export async function locationsExposure(db: Store, locations: SavedLocation[], now: string): Promise<LocationExposure[]> {
  if (locations.length === 0) return [];
  const boxes = locations.map((l) => ({ l, ...degreesAround(l.lat, l.radius_km) }));
  const wide = boxes.some((b) => b.dLng >= 180);
  const box: [number, number, number, number] | undefined = wide ? undefined : [
    Math.min(...boxes.map((b) => b.l.lng - b.dLng)), Math.min(...boxes.map((b) => b.l.lat - b.dLat)),
    Math.max(...boxes.map((b) => b.l.lng + b.dLng)), Math.max(...boxes.map((b) => b.l.lat + b.dLat)),
  ];
  const live = await liveEventsWithRings(db, now, box);
  return boxes.map(({ l, dLat, dLng }) => {
    const events: EventReach[] = [];
    for (const { event: e, rings } of live) {
      if (l.perils.length > 0 && !l.perils.includes(e.event_type)) continue;
      const reach: RingReach[] = [];
      for (const r of rings) {
        const a = r.area;
        if (l.lat + dLat < a.minLat || l.lat - dLat > a.maxLat) continue;
        if (dLng < 180 && (l.lng + dLng < a.minLng || l.lng - dLng > a.maxLng)) continue;
        const d = distanceToAreaKm(l.lng, l.lat, a);
        if (d > l.radius_km) continue;
        reach.push({ ring_id: r.ring_id, ordinal: r.ordinal, kind: r.kind, label: r.label, threshold: r.threshold, unit: r.unit, radius_km: r.radius_km, distance_km: r3(d), inside: d === 0 });
      }
      if (reach.length === 0) continue;
      events.push({ ...eventHeaderOf(e), rings: reach });
    }
    // Events the location is deepest inside first: inside before near, then the innermost ring reached.
    const key = (x: EventReach) => [x.rings[0].inside ? 0 : 1, x.rings[0].ordinal, x.rings[0].distance_km] as const;
    events.sort((a, b) => {
      const [ka, kb] = [key(a), key(b)];
      return ka[0] - kb[0] || ka[2] - kb[2] || ka[1] - kb[1] || a.event_id.localeCompare(b.event_id);
    });
    return { location: l, events };
  });
}
