/**
 * The trigger side of the stream, for authenticated callers: a trigger whose state moved (clear, alert,
 * triggered) and each alert raised (docs/triggers.md), read from the triggers and trigger_alerts tables after
 * every store change, like the live set. Each message names its account; only that account's streams get it.
 * Each carries provenance in the words of GET /triggers/alerts and the history (docs/contract.md#provenance): an alert, its
 * history entry's; a state move, that of the entry its state rests on (stateProvenance below).
 */
import { listValue } from '../store/duckdb.js';
import type { Store } from '../store/db.js';
import { joinEvents, provenanceCols } from '../triggers/history-store.js';
import type { ChangeBody, NullableProvenance } from './messages.js';

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

interface AlertRow extends NullableProvenance {
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
  const states = await db.all<TriggerState & { id: string }>(
    `SELECT id, account, name, state, proximity_pct FROM triggers WHERE status = 'active'`,
  );
  const alerts = await db.all<AlertRow>(
    `SELECT a.id, a.trigger_id, t.name, a.account, a.kind, h.event_id, a.proximity_pct, strftime(a.created_at, '%Y-%m-%dT%H:%M:%SZ') AS created_at,
            h.source, ${provenanceCols('h', 'e')}
       FROM trigger_alerts a JOIN triggers t ON t.id = a.trigger_id LEFT JOIN trigger_history h ON h.id = a.history_id ${joinEvents('h', 'e')}
      ORDER BY a.created_at, a.id`,
  );
  return {
    snapshot: { states: new Map(states.map(({ id, ...s }) => [id, s])), alerts: new Set(alerts.map((a) => a.id)) },
    alerts,
  };
}

/** Active triggers whose state moved since `before`, by id. A trigger created since the last read started clear (docs/contract.md#triggers). */
export function movedTriggers(before: TriggerSnapshot, after: TriggerSnapshot): string[] {
  return [...after.states]
    .filter(([id, now]) => (before.states.get(id)?.state ?? 'clear') !== now.state)
    .map(([id]) => id)
    .sort((a, b) => a.localeCompare(b));
}

const NO_PROVENANCE: NullableProvenance = { source: null, source_url: null, ingested_at: null };

/**
 * The provenance a state move carries: that of the history entry its state rests on, the trigger's latest
 * evaluation round's entry of highest proximity (the state is the worst of that round, run.ts). A move back
 * to clear because the evaluated event left the live set adds no entry: it names the last entry evaluated.
 * Read only for the triggers that moved, not on every refresh.
 */
export async function stateProvenance(db: Store, ids: string[]): Promise<Map<string, NullableProvenance>> {
  if (ids.length === 0) return new Map();
  const rows = await db.all<NullableProvenance & { trigger_id: string }>(
    `SELECT h.trigger_id, h.source, ${provenanceCols('h', 'e')}
       FROM (SELECT trigger_id, event_id, source, source_version FROM trigger_history WHERE trigger_id IN (SELECT unnest($ids::VARCHAR[]))
             QUALIFY row_number() OVER (PARTITION BY trigger_id ORDER BY evaluated_at DESC, proximity_pct DESC, id DESC) = 1) h
       ${joinEvents('h', 'e')}`,
    { ids: listValue(ids) },
  );
  return new Map(rows.map(({ trigger_id, ...p }) => [trigger_id, p]));
}

/** State moves of active triggers (`moved`, with their provenance), then alerts not seen before, oldest first. */
export function diffTriggers(
  before: TriggerSnapshot,
  after: TriggerSnapshot,
  alerts: AlertRow[],
  provenance: Map<string, NullableProvenance>,
): TriggerChange[] {
  const out: TriggerChange[] = [];
  for (const id of movedTriggers(before, after)) {
    const now = after.states.get(id)!;
    out.push({
      account: now.account,
      body: {
        type: 'trigger.state',
        trigger_id: id,
        name: now.name,
        state: now.state,
        previous_state: before.states.get(id)?.state ?? 'clear',
        proximity_pct: now.proximity_pct,
        history_url: `/api/v1/triggers/${id}/history`,
        ...(provenance.get(id) ?? NO_PROVENANCE),
      },
    });
  }
  for (const a of alerts) {
    if (before.alerts.has(a.id)) continue;
    out.push({
      account: a.account,
      body: {
        type: 'trigger.alert',
        alert_id: a.id,
        trigger_id: a.trigger_id,
        name: a.name,
        kind: a.kind,
        event_id: a.event_id,
        proximity_pct: a.proximity_pct,
        created_at: a.created_at,
        source: a.source,
        source_url: a.source_url,
        ingested_at: a.ingested_at,
      },
    });
  }
  return out;
}
