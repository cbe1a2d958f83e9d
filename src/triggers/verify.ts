/**
 * `trigger verify`: every history entry is recomputed from the inputs it stored, with the rules it names,
 * and those inputs are compared with what the store holds now (the event's observations up to the last
 * input time, or the entered values). An entry disagrees when the recomputed value, distance, proximity or
 * state differs from what it recorded, when its stored inputs no longer match their hash, or when the
 * store's data no longer match the stored inputs (a source revision, or tampering).
 */
import type { Store } from '../store/db.js';
import { evaluate, RULE_VERSION, type EvalInputs } from './domain/rules.js';
import { inputsHash } from './domain/receipt.js';
import type { TriggerSpec } from './domain/types.js';
import { allEntries, observationById, type StoredEntry } from './history-store.js';
import { eventInputsOf } from './inputs-store.js';

export interface VerifyReport {
  trigger_id: string;
  rule_version: string;
  entries_checked: number;
  agreeing: number;
  disagreeing: Array<{ entry_id: string; event_id: string | null; observed_at: string | null; problems: string[] }>;
}

const FIELDS = ['observed_at', 'observed_value', 'unit', 'distance_km', 'proximity_pct', 'state', 'method'] as const;

export async function verifyTrigger(db: Store, t: TriggerSpec): Promise<VerifyReport> {
  const entries = await allEntries(db, t.id);
  const report: VerifyReport = {
    trigger_id: t.id,
    rule_version: RULE_VERSION,
    entries_checked: entries.length,
    agreeing: 0,
    disagreeing: [],
  };
  for (const e of entries) {
    const problems = await checkEntry(db, t, e);
    if (problems.length === 0) report.agreeing++;
    else report.disagreeing.push({ entry_id: e.id, event_id: e.event_id, observed_at: e.observed_at, problems });
  }
  return report;
}

async function checkEntry(db: Store, t: TriggerSpec, e: StoredEntry): Promise<string[]> {
  const problems: string[] = [];
  if (e.rule_version !== RULE_VERSION)
    return [`made with rules ${e.rule_version}; this build has ${RULE_VERSION} and cannot recompute it`];
  if (inputsHash(e.inputs) !== e.inputs_hash)
    problems.push('the stored inputs no longer match their recorded hash (altered after recording)');
  const again = evaluate(t, e.inputs);
  for (const f of FIELDS) {
    if (again[f] !== e[f])
      problems.push(`${f}: recorded ${JSON.stringify(e[f])}, recomputed ${JSON.stringify(again[f])}`);
  }
  const fromStore = await storeInputs(db, t, e);
  if (fromStore === null) problems.push('the inputs are no longer in the store');
  else if (inputsHash(fromStore) !== inputsHash(e.inputs))
    problems.push("the store's data differ from the inputs this entry recorded (source revision or alteration)");
  return problems;
}

/** The same inputs, read again from the store; null when they are gone. */
async function storeInputs(db: Store, t: TriggerSpec, e: StoredEntry): Promise<EvalInputs | null> {
  const inputs = e.inputs;
  if (inputs.kind === 'entered') {
    const readings = [];
    for (const r of inputs.readings) {
      const row = await observationById(db, r.id);
      if (!row) return null;
      readings.push({ id: row.id, seq: row.seq, at: row.at, value: row.value, unit: row.unit, source: row.source });
    }
    return { kind: 'entered', readings };
  }
  if (!e.event_id) return null;
  const times = inputs.kind === 'track' ? inputs.fixes.map((f) => f.at) : inputs.readings.map((r) => r.at);
  const until = times.reduce((a, b) => (b > a ? b : a), '');
  if (until === '') return null;
  const stored = await eventInputsOf(db, e.event_id, until);
  if (inputs.kind === 'track') return { kind: 'track', radius_scale: inputs.radius_scale, fixes: stored.fixes };
  const type = t.threshold_type as 'magnitude' | 'gauge_stage_ft' | 'storm_surge_ft';
  return { kind: 'readings', readings: stored.readings[type] ?? [] };
}
