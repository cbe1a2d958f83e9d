/**
 * Each of an account's triggers' state on one event at given instants (`events diff`, docs/event-diff.md):
 * the state of its latest history entry on that event evaluated at or before the instant, `clear` when it
 * had none. Triggers that never evaluated the event are left out.
 */
import type { Store } from '../store/db.js';

export interface StateAt {
  state: string;
  proximity_pct: number;
  evaluated_at: string | null;
}

export async function triggerStatesAt(
  db: Store,
  account: string,
  eventId: string,
  instants: string[],
): Promise<{ trigger_id: string; name: string; states: StateAt[] }[]> {
  const rows = await db.all<{ trigger_id: string; name: string; state: string; proximity_pct: number; at: string }>(
    `SELECT h.trigger_id, t.name, h.state, h.proximity_pct, strftime(h.evaluated_at, '%Y-%m-%dT%H:%M:%SZ') AS at
       FROM trigger_history h JOIN triggers t ON t.id = h.trigger_id
      WHERE t.account = $account AND h.event_id = $event ORDER BY h.evaluated_at, h.id`,
    { account, event: eventId },
  );
  const by = new Map<string, { name: string; rows: typeof rows }>();
  for (const r of rows) {
    const t = by.get(r.trigger_id) ?? { name: r.name, rows: [] };
    t.rows.push(r);
    by.set(r.trigger_id, t);
  }
  return [...by].map(([trigger_id, t]) => ({
    trigger_id,
    name: t.name,
    states: instants.map((at) => {
      const last = t.rows.filter((r) => r.at <= at).pop();
      return last
        ? { state: last.state, proximity_pct: last.proximity_pct, evaluated_at: last.at }
        : { state: 'clear', proximity_pct: 0, evaluated_at: null };
    }),
  }));
}
