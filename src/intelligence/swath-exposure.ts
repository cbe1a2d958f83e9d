/**
 * "So far" of an event's exposure (GET /events/{id}/exposure, docs/intelligence.md "Exposure"): the same
 * figures as now (population, infrastructure, the caller's portfolio TIV) over the event's swath up to the
 * clock, the union of its wind rings over every fix (src/portfolios/live-rings.ts swathOfEvents, the swath
 * portfolio and saved-location exposure use). A storm that crossed a county before the latest fix still
 * counts it so far.
 *
 * Population and infrastructure are read over the true union of each swath ring (domain/swath-union.ts):
 * area apportionment over the overlapping per-fix polygons would count the overlaps again. A swath ring that
 * is a current ring as it stands (a kind that does not travel, or an event with no ring history) has the
 * now figures, not computed twice.
 */
import type { MultiPolygon, Polygon } from 'geojson';
import type { EventType } from '../domain/event.js';
import { tivByRing, type RingTiv } from '../portfolios/exposure.js';
import { swathOfEvents, type LiveRing } from '../portfolios/live-rings.js';
import type { Area } from '../portfolios/domain/geometry.js';
import type { Store } from '../store/db.js';
import type { EventRow } from '../store/events-read.js';
import { unionOf } from './domain/swath-union.js';
import { MemoByContent } from '../lib/memo-by-content.js';
import { ringExposures, type RingExposureBody, type RingIn } from './exposure.js';

export const SWATH_METHOD =
  'so_far: the event\'s swath up to as_of, per wind threshold the union of its rings at every fix (version) up to the clock (docs/portfolios.md "Now and so far"), then the same figures as now over that union: population apportioned over the exact union (overlaps between fixes counted once), facilities and portfolio locations inside any fix\'s ring counted once; rings that do not travel (a cone, an alert area, an intensity ring) are as they are now';

/** A swath ring's union by its polygons: the same swath asked about again is not clipped again. */
const unionOfPolygons = new MemoByContent(unionOf, 64);

export interface SwathRingExposure extends RingExposureBody {
  /** How many fixes (versions) the union takes in, the first and the last. */
  fixes: number;
  from: string;
  to: string;
  portfolio_tiv: RingTiv['by_currency'];
}

/** The rings of the event now, with their figures, as the handler computed them. */
export interface NowRing {
  ring: LiveRing;
  geometry: Area;
  exposure: RingExposureBody;
}

export async function swathExposure(
  db: Store,
  account: string,
  event: EventRow,
  now: NowRing[],
  asOf: string,
): Promise<SwathRingExposure[]> {
  const swath =
    (
      await swathOfEvents(db, [{ id: event.id, updated_at: event.updated_at, rings: now.map((n) => n.ring) }], asOf)
    ).get(event.id) ?? [];
  const nowByArea = new Map(now.map((n, idx) => [n.ring.area, { ...n, idx }]));
  const ins: RingIn[] = swath.map((s) => ({
    ring_id: s.ring_id,
    ordinal: s.ordinal,
    kind: s.kind,
    label: s.label,
    threshold: s.threshold,
    unit: s.unit,
    radius_km: null,
    geometry: nowByArea.get(s.area)?.geometry ?? unionOfPolygons.get(s.area.polygons),
  }));
  // ringExposures depends only on each ring's geometry and its position (hospitals are named in the innermost
  // two), so a current ring at the same position has the same figures.
  const fresh = ins
    .map((r, idx) => ({ ...r, position: idx }))
    .filter((r) => nowByArea.get(swath[r.position].area)?.idx !== r.position);
  const computed = new Map(ringExposures(fresh).map((e) => [e.ordinal, e]));
  const tiv = await tivByRing(
    db,
    account,
    event.event_type as EventType,
    ins.map((r) => ({
      ring_id: r.ring_id,
      kind: r.kind,
      label: r.label,
      geojson: r.geometry as Polygon | MultiPolygon,
    })),
  );
  return swath.map((s, idx) => {
    const reused = nowByArea.get(s.area);
    const body =
      reused && reused.idx === idx
        ? { ...reused.exposure, ordinal: s.ordinal, ring_id: s.ring_id, radius_km: null }
        : computed.get(s.ordinal)!;
    return { ...body, fixes: s.fixes, from: s.from, to: s.to, portfolio_tiv: tiv[idx].by_currency };
  });
}
