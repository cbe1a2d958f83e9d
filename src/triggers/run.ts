/**
 * One evaluation round against the store (`catintel trigger evaluate`, and the server after each scheduled
 * ingest): read the active triggers, the live events of their perils and the entered values as of now,
 * evaluate (src/triggers/domain/evaluate-all.ts), then in one transaction append the entries not seen
 * before, raise each alert once, and move each trigger's state. Re-running over the same data adds nothing.
 *
 * Trigger state: `triggered` latches (a bond that fired has fired; deactivate the trigger to stop
 * watching it); otherwise the worst state of its current evaluations (events still live), so an alert
 * clears once the storm that raised it has gone.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from '../context.js';
import { baselineRingOptions } from '../reference-data/ring-options.js';
import { evaluateAll, type PairResult } from './domain/evaluate-all.js';
import { inputsHash, observationKey } from './domain/receipt.js';
import { RULE_VERSION } from './domain/rules.js';
import type { TriggerState, TriggerView } from './domain/types.js';
import { allActiveTriggers } from './store.js';
import { fireProbabilities, replaceFireProbabilities } from './fire-probability.js';
import { enteredInputs, liveEventInputs } from './inputs-store.js';
import {
  existingKeys,
  insertAlerts,
  insertEntries,
  raisedAlertKeys,
  updateStates,
  type HistoryEntry,
  type NewAlert,
  type StoredEntry,
} from './history-store.js';

export interface EvaluationSummary {
  evaluated_at: string;
  rule_version: string;
  triggers_evaluated: number;
  events_considered: number;
  entries_added: number;
  alerts_raised: number;
  newly_triggered: Array<{
    trigger_id: string;
    name: string;
    account: string;
    event_id: string | null;
    source_id: string;
    observed_value: number | null;
    unit: string;
    proximity_pct: number;
  }>;
  entries: Array<
    Pick<
      HistoryEntry,
      | 'id'
      | 'trigger_id'
      | 'event_id'
      | 'source_id'
      | 'observed_at'
      | 'observed_value'
      | 'unit'
      | 'distance_km'
      | 'proximity_pct'
      | 'state'
    >
  >;
}

const RANK: Record<TriggerState, number> = { clear: 0, alert: 1, triggered: 2 };
const worse = (a: TriggerState, b: TriggerState) => (RANK[b] > RANK[a] ? b : a);

export async function evaluateTriggers(ctx: Context): Promise<EvaluationSummary> {
  const now = ctx
    .clock()
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
  const triggers = (await allActiveTriggers(ctx.db)).filter((t) => t.created_at <= now);
  const perils = [...new Set(triggers.filter((t) => t.threshold_type !== 'industry_loss_usd').map((t) => t.peril))];
  const events = await liveEventInputs(ctx.db, now, perils, {
    gaugeReadings: triggers.some((t) => t.threshold_type === 'gauge_stage_ft'),
  });
  const entered = await enteredInputs(ctx.db, now);
  const ring = baselineRingOptions();
  const pairs = evaluateAll(triggers, events, entered, () => ring.hurricaneRadiusScale!());
  const seen = await existingKeys(ctx.db);
  // Probability to trigger now: each live storm's forecast ensemble read by each trigger it can reach.
  const probabilities = await fireProbabilities(ctx.db, now, triggers, events, ring.hurricaneRadiusScale!());

  const summary: EvaluationSummary = {
    evaluated_at: now,
    rule_version: RULE_VERSION,
    triggers_evaluated: triggers.length,
    events_considered: events.length,
    entries_added: 0,
    alerts_raised: 0,
    newly_triggered: [],
    entries: [],
  };
  const byTrigger = new Map<string, PairResult[]>();
  for (const p of pairs) byTrigger.set(p.trigger.id, [...(byTrigger.get(p.trigger.id) ?? []), p]);

  // Decide everything first, then write it in a few batched statements inside one transaction.
  const raised = await raisedAlertKeys(ctx.db);
  const newEntries: StoredEntry[] = [];
  const newAlerts: NewAlert[] = [];
  const changed: Array<{ id: string; state: TriggerState; proximity_pct: number }> = [];
  for (const t of triggers as TriggerView[]) {
    const mine = byTrigger.get(t.id) ?? [];
    let state: TriggerState = t.state === 'triggered' ? 'triggered' : 'clear';
    let proximity = 0;
    let current = t.state;
    for (const p of mine) {
      const ev = p.evaluation;
      state = worse(state, ev.state);
      proximity = Math.max(proximity, ev.proximity_pct);
      const hash = inputsHash(p.inputs);
      const obsKey = observationKey(p.event_key, RULE_VERSION, hash);
      if (seen.has(`${t.id}#${obsKey}`)) continue;
      seen.add(`${t.id}#${obsKey}`);
      const entry: StoredEntry = {
        id: randomUUID(),
        trigger_id: t.id,
        obs_key: obsKey,
        event_id: p.event_id,
        source: p.source,
        source_id: p.source_id,
        source_version: p.source_version,
        ...ev,
        previous_state: current,
        rule_version: RULE_VERSION,
        inputs: p.inputs,
        inputs_hash: hash,
        evaluated_at: now,
      };
      newEntries.push(entry);
      summary.entries.push({
        id: entry.id,
        trigger_id: t.id,
        event_id: p.event_id,
        source_id: p.source_id,
        observed_at: ev.observed_at,
        observed_value: ev.observed_value,
        unit: ev.unit,
        distance_km: ev.distance_km,
        proximity_pct: ev.proximity_pct,
        state: ev.state,
      });
      if (ev.state !== 'clear' && !raised.has(`${t.id}#${p.event_key}#${ev.state}`)) {
        raised.add(`${t.id}#${p.event_key}#${ev.state}`);
        newAlerts.push({
          id: randomUUID(),
          trigger_id: t.id,
          account: t.account,
          history_id: entry.id,
          kind: ev.state,
          event_key: p.event_key,
          proximity_pct: ev.proximity_pct,
          created_at: now,
        });
      }
      if (ev.state === 'triggered' && current !== 'triggered') {
        summary.newly_triggered.push({
          trigger_id: t.id,
          name: t.name,
          account: t.account,
          event_id: p.event_id,
          source_id: p.source_id,
          observed_value: ev.observed_value,
          unit: ev.unit,
          proximity_pct: ev.proximity_pct,
        });
      }
      current = worse(current, ev.state);
    }
    if (t.state === 'triggered') proximity = Math.max(proximity, t.proximity_pct);
    if (state !== t.state || proximity !== t.proximity_pct) changed.push({ id: t.id, state, proximity_pct: proximity });
  }
  summary.entries_added = newEntries.length;
  summary.alerts_raised = newAlerts.length;
  await ctx.db.transaction(async (tx) => {
    await insertEntries(tx, newEntries);
    await insertAlerts(tx, newAlerts);
    await updateStates(tx, changed);
    await replaceFireProbabilities(tx, probabilities);
    await tx.run(
      `UPDATE triggers SET last_evaluated_at = $at::TIMESTAMP WHERE status = 'active' AND created_at <= $at::TIMESTAMP`,
      { at: now },
    );
  });
  return summary;
}
