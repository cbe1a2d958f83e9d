/** Saved locations and their alerts (migration 5), always scoped to an owner (owner.ts): another's id is not found. */
import { listValue } from '../store/duckdb.js';
import type { Store, Tx } from '../store/db.js';
import type { LocationFields } from './domain/validate.js';

export interface SavedLocation {
  id: string;
  name: string;
  lat: number;
  lng: number;
  radius_km: number;
  perils: string[];
  notes: string | null;
  created_at: string;
}

interface Row extends Omit<SavedLocation, 'perils'> {
  perils: string;
}

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;
const SELECT = `SELECT id, name, lat, lng, radius_km, perils, notes, ${iso('created_at')} AS created_at FROM saved_locations`;
const json = (r: Row): SavedLocation => ({ ...r, perils: JSON.parse(r.perils) as string[] });

export async function listLocations(db: Store, owner: string): Promise<SavedLocation[]> {
  return (await db.all<Row>(`${SELECT} WHERE owner = $owner ORDER BY created_at, id`, { owner })).map(json);
}

export async function getLocation(db: Store, owner: string, id: string): Promise<SavedLocation | undefined> {
  const r = await db.one<Row>(`${SELECT} WHERE owner = $owner AND id = $id`, { owner, id });
  return r && json(r);
}

export async function countLocations(tx: Tx, owner: string): Promise<number> {
  const rows = await tx.all<{ n: bigint }>(`SELECT count(*) AS n FROM saved_locations WHERE owner = $owner`, { owner });
  return Number(rows[0]?.n ?? 0);
}

export async function insertLocation(tx: Tx, id: string, owner: string, f: LocationFields, at: string): Promise<void> {
  await tx.run(
    `INSERT INTO saved_locations (id, owner, name, lat, lng, radius_km, perils, notes, created_at)
     VALUES ($id, $owner, $name, $lat, $lng, $radius, $perils, $notes, $at::TIMESTAMP)`,
    {
      id,
      owner,
      name: f.name,
      lat: f.lat,
      lng: f.lng,
      radius: f.radius_km,
      perils: JSON.stringify(f.perils),
      notes: f.notes,
      at,
    },
  );
}

/** Removes the location and its alerts; false when the owner has no such location. */
export async function deleteLocation(db: Store, owner: string, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const gone = await tx.change(`DELETE FROM saved_locations WHERE owner = $owner AND id = $id`, { owner, id });
    if (gone === 0) return false;
    await tx.run(`DELETE FROM location_alerts WHERE owner = $owner AND location_id = $id`, { owner, id });
    return true;
  });
}

export interface LocationAlert {
  id: string;
  kind: 'location';
  location_id: string;
  location_name: string;
  event_id: string;
  event_title: string;
  event_type: string;
  /** Null when the swath raised it and the event no longer has that ring (src/locations/ingest-alerts.ts). */
  ring_id: string | null;
  ring_kind: string;
  ring_label: string;
  distance_km: number;
  raised_at: string;
  /** The event's provenance: the alert was raised from that record (docs/contract.md#provenance). */
  source: string;
  source_url: string;
  ingested_at: string;
}

export interface PortfolioAlert {
  id: string;
  kind: 'portfolio';
  portfolio_id: string;
  portfolio_name: string;
  event_id: string;
  event_title: string;
  event_type: string;
  /** Null when the swath raised it and the event no longer has that ring (src/locations/ingest-alerts.ts). */
  ring_id: string | null;
  ring_kind: string;
  ring_label: string;
  NumLocations: number;
  BldgInsuranceAmt: number;
  ContentsInsuranceAmt: number;
  BIInsuranceAmt: number;
  OtherInsuranceAmt: number;
  TotalInsuranceAmt: number;
  CurCd: string;
  raised_at: string;
  source: string;
  source_url: string;
  ingested_at: string;
}

/** An alert's provenance: its event's (`e`, joined on the alert's event_id). */
export const EVENT_PROVENANCE = `e.source, e.source_url, ${iso('e.ingested_at')} AS ingested_at`;

/** Unread alerts of an owner's saved locations, oldest first. */
export async function unreadLocationAlerts(db: Store, owner: string): Promise<LocationAlert[]> {
  return db.all<LocationAlert>(
    `SELECT a.id, 'location' AS kind, a.location_id, l.name AS location_name, a.event_id, e.title AS event_title, e.event_type,
            nullif(a.ring_id, '') AS ring_id, a.ring_kind, a.ring_label, round(a.distance_km, 3) AS distance_km, ${iso('a.raised_at')} AS raised_at, ${EVENT_PROVENANCE}
       FROM location_alerts a JOIN saved_locations l ON l.id = a.location_id JOIN events e ON e.id = a.event_id::UUID
      WHERE a.owner = $owner AND a.read_at IS NULL ORDER BY a.raised_at, a.id`,
    { owner },
  );
}

/** Unread alerts of an account's portfolios, oldest first. */
export async function unreadPortfolioAlerts(db: Store, account: string): Promise<PortfolioAlert[]> {
  return db.all<PortfolioAlert>(
    `SELECT a.id, 'portfolio' AS kind, a.portfolio_id, p.name AS portfolio_name, a.event_id, e.title AS event_title, e.event_type,
            nullif(a.ring_id, '') AS ring_id, a.ring_kind, a.ring_label, a.location_count AS "NumLocations",
            a.building_tiv AS "BldgInsuranceAmt", a.contents_tiv AS "ContentsInsuranceAmt", a.bi_tiv AS "BIInsuranceAmt", a.other_tiv AS "OtherInsuranceAmt",
            round(a.building_tiv + a.contents_tiv + a.bi_tiv + a.other_tiv, 2) AS "TotalInsuranceAmt", a.currency AS "CurCd", ${iso('a.raised_at')} AS raised_at, ${EVENT_PROVENANCE}
       FROM portfolio_alerts a JOIN portfolios p ON p.id = a.portfolio_id JOIN events e ON e.id = a.event_id::UUID
      WHERE a.account = $account AND a.read_at IS NULL ORDER BY a.raised_at, a.event_id, a.location_count, a.ring_label, a.id`,
    { account },
  );
}

export async function markRead(
  db: Store,
  table: 'location_alerts' | 'portfolio_alerts',
  ids: string[],
  at: string,
): Promise<void> {
  if (ids.length === 0) return;
  await db.run(
    `UPDATE ${table} SET read_at = $at::TIMESTAMP WHERE id IN (SELECT unnest($ids::VARCHAR[])) AND read_at IS NULL`,
    { at, ids: listValue(ids) },
  );
}
