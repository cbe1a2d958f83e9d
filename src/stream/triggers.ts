/**
 * The trigger side of the stream, for authenticated callers: a trigger whose state moved (clear, alert,
 * triggered) and each alert raised (docs/triggers.md), read from the triggers and trigger_alerts tables after
 * every store change, like the live set. Each message names its account; only that account's streams get it.
 */
import type { Store } from '../store/db.js';
import type { ChangeBody } from './messages.js';

interface TriggerState {
  account: string;
  name: string;
  state: string;
  proximity_pct: number;
}

export interface TriggerSnapshot {
  states: Map<string, TriggerState>;
  alerts: Set<string>;
}

interface AlertRow {
  id: string;
  trigger_id: string;
  name: string;
  account: string;
  kind: string;
  event_id: string | null;
  proximity_pct: number;
  created_at: string;
}

export interface TriggerChange {
  body: ChangeBody;
  account: string;
}

export async function triggerSnapshot(db: Store): Promise<{ snapshot: TriggerSnapshot; alerts: AlertRow[] }> {
  const states = await db.all<TriggerState & { id: string }>(`SELECT id, account, name, state, proximity_pct FROM triggers WHERE status = 'active'`);
  const alerts = await db.all<AlertRow>(
    `SELECT a.id, a.trigger_id, t.name, a.account, a.kind, h.event_id, a.proximity_pct, strftime(a.created_at, '%Y-%m-%dT%H:%M:%SZ') AS created_at
       FROM trigger_alerts a JOIN triggers t ON t.id = a.trigger_id LEFT JOIN trigger_history h ON h.id = a.history_id
      ORDER BY a.created_at, a.id`,
  );
  return {
    snapshot: { states: new Map(states.map(({ id, ...s }) => [id, s])), alerts: new Set(alerts.map((a) => a.id)) },
    alerts,
  };
}

/** State moves of active triggers, then alerts not seen before, oldest first. */
export function diffTriggers(before: TriggerSnapshot, after: TriggerSnapshot, alerts: AlertRow[]): TriggerChange[] {
  const out: TriggerChange[] = [];
  for (const [id, now] of [...after.states].sort(([a], [b]) => a.localeCompare(b))) {
    // A trigger created since the last read started clear (CONTRACT §7).
    const previous = before.states.get(id)?.state ?? 'clear';
    if (previous === now.state) continue;
    out.push({
      account: now.account,
      body: { type: 'trigger.state', trigger_id: id, name: now.name, state: now.state, previous_state: previous, proximity_pct: now.proximity_pct, history_url: `/api/v1/triggers/${id}/history` },
    });
  }
  for (const a of alerts) {
    if (before.alerts.has(a.id)) continue;
    out.push({
      account: a.account,
      body: { type: 'trigger.alert', alert_id: a.id, trigger_id: a.trigger_id, name: a.name, kind: a.kind, event_id: a.event_id, proximity_pct: a.proximity_pct, created_at: a.created_at },
    });
  }
  return out;
}
