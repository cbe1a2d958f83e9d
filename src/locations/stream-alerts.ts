/**
 * Saved-location and portfolio alerts on the event stream (GET /events/stream), for authenticated callers:
 * read from location_alerts and portfolio_alerts after every store change, like the trigger side
 * (src/stream/triggers.ts); each alert not seen before becomes one message for its account only. Alerts of
 * anonymous callers' locations (owned by a client address) are never sent: a stream without a credential
 * carries no per-caller messages (docs/stream.md). Each carries its event's provenance, as GET
 * /locations/alerts gives it (docs/contract.md#events).
 */
import { provenanceOf, type Provenance } from '../domain/provenance.js';
import type { Store } from '../store/db.js';
import type { ChangeBody } from '../stream/messages.js';
import { EVENT_PROVENANCE } from './store.js';

export interface AlertSnapshot {
  ids: Set<string>;
}

interface Row extends Provenance {
  id: string;
  kind: 'location' | 'portfolio';
  account: string;
  thing_id: string;
  thing_name: string;
  event_id: string;
  ring_label: string;
  distance_km: number | null;
  location_count: number | null;
  total: number | null;
  currency: string | null;
  raised_at: string;
}

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;

export async function alertSnapshot(db: Store): Promise<{ snapshot: AlertSnapshot; rows: Row[] }> {
  const rows = await db.all<Row>(
    `SELECT a.id, 'location' AS kind, substr(a.owner, 9) AS account, a.location_id AS thing_id, l.name AS thing_name, a.event_id, a.ring_label,
            round(a.distance_km, 3) AS distance_km, NULL AS location_count, NULL AS total, NULL AS currency, ${iso('a.raised_at')} AS raised_at, ${EVENT_PROVENANCE}
       FROM location_alerts a JOIN saved_locations l ON l.id = a.location_id JOIN events e ON e.id = a.event_id::UUID WHERE a.owner LIKE 'account:%'
     UNION ALL
     SELECT a.id, 'portfolio' AS kind, a.account, a.portfolio_id AS thing_id, p.name AS thing_name, a.event_id, a.ring_label,
            NULL AS distance_km, a.location_count, round(a.building_tiv + a.contents_tiv + a.bi_tiv + a.other_tiv, 2) AS total, a.currency, ${iso('a.raised_at')} AS raised_at, ${EVENT_PROVENANCE}
       FROM portfolio_alerts a JOIN portfolios p ON p.id = a.portfolio_id JOIN events e ON e.id = a.event_id::UUID
     ORDER BY raised_at, id`,
  );
  return { snapshot: { ids: new Set(rows.map((r) => r.id)) }, rows };
}

/** Alerts not in `before`, oldest first, each for its account. */
export function diffAlerts(before: AlertSnapshot, rows: Row[]): Array<{ body: ChangeBody; account: string }> {
  return rows
    .filter((r) => !before.ids.has(r.id))
    .map((r) => ({
      account: r.account,
      body:
        r.kind === 'location'
          ? {
              type: 'location.alert',
              alert_id: r.id,
              location_id: r.thing_id,
              name: r.thing_name,
              event_id: r.event_id,
              ring_label: r.ring_label,
              distance_km: r.distance_km ?? 0,
              raised_at: r.raised_at,
              ...provenanceOf(r),
            }
          : {
              type: 'portfolio.alert',
              alert_id: r.id,
              portfolio_id: r.thing_id,
              name: r.thing_name,
              event_id: r.event_id,
              ring_label: r.ring_label,
              NumLocations: r.location_count ?? 0,
              TotalInsuranceAmt: r.total ?? 0,
              CurCd: r.currency ?? 'USD',
              raised_at: r.raised_at,
              ...provenanceOf(r),
            },
    }));
}
