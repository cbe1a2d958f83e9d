/**
 * Alerts at ingest: inside the ingest transaction that writes an event's rings (src/ingest/run.ts), every live
 * ring of the run's events is checked against the saved locations it reaches (within the location's
 * radius_km; distance 0 inside) and the portfolios with a covered location inside it.
 *  - a saved location gets one alert for the innermost ring of an event that reaches it, and one more only
 *    when a ring further in reaches it later (a growing ring, a storm moving away, the same feed again: none);
 *  - a portfolio gets one alert per (portfolio, event, ring) with the count and TIV of its covered locations
 *    inside the ring.
 * Rings keep their kind and label as they grow (ring_key), and migration 5's UNIQUE keys with ON CONFLICT DO
 * NOTHING make "never twice" hold across re-runs; a killed ingest leaves none of its own (one transaction).
 */
import { randomUUID } from 'node:crypto';
import type { DuckDBValue } from '@duckdb/node-api';
import { listValue } from '../store/duckdb.js';
import type { EventType } from '../domain/event.js';
import { whereOf } from '../store/events-read.js';
import type { Tx } from '../store/db.js';
import { degreesAround, distanceToAreaKm, pointInPrepared } from '../portfolios/domain/geometry.js';
import { ringReach } from '../portfolios/peril-reach.js';
import { locationIndex } from '../portfolios/location-index.js';
import { ringsOfEvents, swathOfEvents, type ExposureRing } from '../portfolios/live-rings.js';

export interface RaisedAlerts {
  location_alerts: number;
  portfolio_alerts: number;
}

const ringKey = (r: ExposureRing) => `${r.kind}|${r.label}`;

export async function raiseRingAlerts(tx: Tx, eventIds: string[], now: string): Promise<RaisedAlerts> {
  const raised: RaisedAlerts = { location_alerts: 0, portfolio_alerts: 0 };
  if (eventIds.length === 0) return raised;
  // Nothing to alert (the usual store of a plain ingest): no ring is read.
  const owners = await tx.all<{ n: bigint }>(
    `SELECT (SELECT count(*) FROM saved_locations) + (SELECT count(*) FROM portfolios) AS n`,
  );
  if (Number(owners[0]?.n ?? 0) === 0) return raised;
  const params: Record<string, DuckDBValue> = { ids: listValue(eventIds) };
  const where = whereOf({ now, statuses: ['active', 'monitoring'] }, params);
  const live = await tx.all<{ id: string; event_type: EventType; updated_at: string }>(
    `SELECT id::VARCHAR AS id, event_type, strftime(updated_at, '%Y-%m-%dT%H:%M:%SZ') AS updated_at FROM events WHERE id IN (SELECT unnest($ids::UUID[])) AND ${where.join(' AND ')}`,
    params,
  );
  if (live.length === 0) return raised;
  const typeOf = new Map(live.map((e) => [e.id, e.event_type]));
  // The swath up to now, not only the latest rings: a storm that crossed a location between two ingests (or
  // before a best track is first read) still alerts it, and an alert raised stays raised as the storm moves on.
  const current = await ringsOfEvents(
    tx,
    live.map((e) => e.id),
  );
  const swath = await swathOfEvents(
    tx,
    live.map((e) => ({ id: e.id, updated_at: e.updated_at, rings: current.get(e.id) ?? [] })),
    now,
  );
  const rings = [...swath.values()].flat();
  if (rings.length === 0) return raised;
  raised.location_alerts = await locationAlerts(tx, rings, typeOf, now);
  raised.portfolio_alerts = await portfolioAlerts(tx, rings, typeOf, now);
  return raised;
}

interface SavedRow {
  // perils as stored (JSON text)
  id: string;
  owner: string;
  lat: number;
  lng: number;
  radius_km: number;
  perils: string;
}

async function locationAlerts(
  tx: Tx,
  rings: ExposureRing[],
  typeOf: Map<string, EventType>,
  now: string,
): Promise<number> {
  // Saved locations are capped per owner; all of them are read once and each ring is checked against their boxes.
  const saved = (
    await tx.all<SavedRow>(`SELECT id, owner, lat, lng, radius_km, perils FROM saved_locations ORDER BY id`)
  ).map((l) => ({
    ...l,
    perils: JSON.parse(l.perils) as string[],
    ...degreesAround(l.lat, l.radius_km),
  }));
  if (saved.length === 0) return 0;
  const byEvent = new Map<string, ExposureRing[]>();
  for (const r of rings) byEvent.set(r.event_id, [...(byEvent.get(r.event_id) ?? []), r]);
  // Alerts already raised for these events: (location, event) -> ring keys.
  const held = new Map<string, Set<string>>();
  for (const a of await tx.all<{ location_id: string; event_id: string; ring_key: string }>(
    `SELECT location_id, event_id, ring_key FROM location_alerts WHERE event_id IN (SELECT unnest($ids::VARCHAR[]))`,
    { ids: listValue([...byEvent.keys()]) },
  )) {
    const k = `${a.location_id}|${a.event_id}`;
    held.set(k, (held.get(k) ?? new Set()).add(a.ring_key));
  }
  let count = 0;
  for (const [eventId, eventRings] of byEvent) {
    const type = typeOf.get(eventId)!;
    for (const l of saved) {
      if (l.perils.length > 0 && !l.perils.includes(type)) continue;
      // The innermost ring of the event that comes within the location's radius (rings are innermost first).
      let hit: { ring: ExposureRing; position: number; d: number } | undefined;
      for (const [position, ring] of eventRings.entries()) {
        const a = ring.area;
        if (l.lat + l.dLat < a.minLat || l.lat - l.dLat > a.maxLat) continue;
        if (l.dLng < 180 && (l.lng + l.dLng < a.minLng || l.lng - l.dLng > a.maxLng)) continue;
        const d = distanceToAreaKm(l.lng, l.lat, a);
        if (d <= l.radius_km) {
          hit = { ring, position, d };
          break;
        }
      }
      if (!hit) continue;
      // One alert when a ring first reaches the location, and one more each time a ring further in reaches it;
      // a ring at or outside one already alerted (the same ring grown, or the storm moving away) adds nothing.
      const keys = held.get(`${l.id}|${eventId}`);
      if (keys && eventRings.some((r, i) => i <= hit!.position && keys.has(ringKey(r)))) continue;
      // Left out when the key is stored (SELECT ... WHERE NOT EXISTS rather than ON CONFLICT ... RETURNING,
      // which a cluster store's DuckLake tables do not have); the UNIQUE key still guards a DuckDB file.
      const inserted = await tx.change(
        `INSERT INTO location_alerts (id, owner, location_id, event_id, ring_key, ring_id, ring_kind, ring_label, distance_km, raised_at)
         SELECT $id, $owner, $loc, $event, $key, $ring, $kind, $label, $d, $now::TIMESTAMP
          WHERE NOT EXISTS (SELECT 1 FROM location_alerts WHERE location_id = $loc AND event_id = $event AND ring_key = $key)`,
        {
          id: randomUUID(),
          owner: l.owner,
          loc: l.id,
          event: eventId,
          key: ringKey(hit.ring),
          ring: hit.ring.ring_id ?? '',
          kind: hit.ring.kind,
          label: hit.ring.label,
          d: hit.d,
          now,
        },
      );
      count += inserted;
    }
  }
  return count;
}

async function portfolioAlerts(
  tx: Tx,
  rings: ExposureRing[],
  typeOf: Map<string, EventType>,
  now: string,
): Promise<number> {
  // Each portfolio's extent, in one pass; a ring looks only at the portfolios whose extent meets its box.
  const extents = await tx.all<{
    id: string;
    account: string;
    currency: string;
    min_lat: number;
    max_lat: number;
    min_lng: number;
    max_lng: number;
  }>(
    `SELECT p.id, p.account, p.currency, e.min_lat, e.max_lat, e.min_lng, e.max_lng FROM portfolios p JOIN (
       SELECT portfolio_id, min(lat) AS min_lat, max(lat) AS max_lat, min(lng) AS min_lng, max(lng) AS max_lng
         FROM portfolio_locations GROUP BY portfolio_id) e ON e.portfolio_id = p.id ORDER BY p.id`,
  );
  if (extents.length === 0) return 0;
  let count = 0;
  for (const ring of rings) {
    const a = ring.area;
    const candidates = extents.filter(
      (p) => p.max_lat >= a.minLat && p.min_lat <= a.maxLat && p.max_lng >= a.minLng && p.min_lng <= a.maxLng,
    );
    const reach = ringReach(typeOf.get(ring.event_id)!, ring);
    for (const p of candidates) {
      // Only the locations inside the ring's box are read (a book of millions is not loaded for one ring),
      // and summed in file order, so the amounts do not depend on which locations were read.
      const ix = await locationIndex(tx, p.id, p.currency, [[a.minLng, a.minLat, a.maxLng, a.maxLat]]);
      let n = 0,
        b = 0,
        c = 0,
        bi = 0,
        o = 0;
      if (ix.tree) {
        for (const i of ix.tree.search(a.minLng, a.minLat, a.maxLng, a.maxLat).sort((x, y) => x - y)) {
          if (!pointInPrepared(ix.lng[i], ix.lat[i], a) || !reach.covered(ix, i)) continue;
          n++;
          b += ix.building[i];
          c += ix.contents[i];
          bi += ix.bi[i];
          o += ix.other[i];
        }
      }
      if (n === 0) continue;
      const r2 = (x: number) => Math.round(x * 100) / 100;
      const inserted = await tx.change(
        `INSERT INTO portfolio_alerts (id, account, portfolio_id, event_id, ring_key, ring_id, ring_kind, ring_label, location_count,
                                       building_tiv, contents_tiv, bi_tiv, other_tiv, currency, raised_at)
         SELECT $id, $account, $pid, $event, $key, $ring, $kind, $label, $n, $b, $c, $bi, $o, $cur, $now::TIMESTAMP
          WHERE NOT EXISTS (SELECT 1 FROM portfolio_alerts WHERE portfolio_id = $pid AND event_id = $event AND ring_key = $key)`,
        {
          id: randomUUID(),
          account: p.account,
          pid: p.id,
          event: ring.event_id,
          key: ringKey(ring),
          ring: ring.ring_id ?? '',
          kind: ring.kind,
          label: ring.label,
          n,
          b: r2(b),
          c: r2(c),
          bi: r2(bi),
          o: r2(o),
          cur: p.currency,
          now,
        },
      );
      count += inserted;
    }
  }
  return count;
}
