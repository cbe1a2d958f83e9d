/**
 * The value a trigger's rule reads at its site for each event of a model package's stochastic catalog,
 * pure: the live rule (rules.ts siteValue) applied to the catalog's tracks and ruptures instead of the
 * feeds' fixes and epicentres (docs/basis-risk.md "What the trigger reads").
 *
 *  - A hurricane track becomes the fixes a live storm has: position, 1-min Vmax and central pressure at each
 *    of the track's fixes, and its radius of maximum wind as the record's RMW (the storm's own size, the one
 *    its wind footprint is made with), so the rule's Holland profile runs on the same storm the loss does.
 *  - An earthquake is a reading of its magnitude at its epicentre: a gridded rupture's cell centre; a fault
 *    rupture's epicentre is taken as the middle of its surface trace (the catalog places no hypocentre on it).
 */
import { KM_PER_NM } from '../../../lib/geo.js';
import type { Track } from '../../../models/hurricane/domain/track.js';
import { siteValue, type TriggerCriteria } from '../../domain/rules.js';
import type { TrackFix } from '../../domain/track.js';

/** An arbitrary origin for a catalog track's clock (its fixes carry hours since its first fix). */
const CLOCK_ORIGIN_MS = Date.UTC(2000, 0, 1);
const HOUR_MS = 3_600_000;

/** A catalog track as the trigger rule reads a live storm's fixes. */
function triggerFixesOf(track: Track): TrackFix[] {
  return track.fixes.map((f) => ({
    at: new Date(CLOCK_ORIGIN_MS + Math.round(f.hours * HOUR_MS)).toISOString().replace('.000Z', 'Z'),
    lat: f.lat,
    lng: f.lng,
    windKt: f.windKt,
    pressureMb: f.pressureMb,
    rmwNm: f.rmwKm / KM_PER_NM,
  }));
}

export function hurricaneSiteValues(
  t: TriggerCriteria,
  tracks: readonly Track[],
  radiusScale: number,
): Map<number, number | null> {
  const out = new Map<number, number | null>();
  for (const track of tracks)
    out.set(track.eventId, siteValue(t, { kind: 'track', radius_scale: radiusScale, fixes: triggerFixesOf(track) }));
  return out;
}

export interface CatalogQuakeEvent {
  eventId: number;
  magnitude: number;
  lat: number;
  lng: number;
}

export function earthquakeSiteValues(
  t: TriggerCriteria,
  quakes: readonly CatalogQuakeEvent[],
): Map<number, number | null> {
  const out = new Map<number, number | null>();
  for (const q of quakes)
    out.set(
      q.eventId,
      siteValue(t, {
        kind: 'readings',
        readings: [{ at: '2000-01-01T00:00:00Z', value: q.magnitude, unit: 'Mw', lat: q.lat, lng: q.lng }],
      }),
    );
  return out;
}
