/**
 * trigger_history, trigger_alerts and trigger_observations (migration 4). History is append-only: an
 * entry is never updated, so what a receipt said stays what it says; `trigger verify` recomputes it.
 */
import type { Store, Tx } from '../store/db.js';
import { cols, insertRows } from '../store/bulk.js';
import type { EvalInputs } from './domain/rules.js';
import type { TriggerState } from './domain/types.js';

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;

export interface HistoryEntry {
  id: string;
  trigger_id: string;
  event_id: string | null;
  source: string;
  source_id: string;
  source_version: string;
  observed_at: string | null;
  observed_value: number | null;
  unit: string;
  distance_km: number | null;
  proximity_pct: number;
  state: TriggerState;
  previous_state: TriggerState;
  method: string;
  rule_version: string;
  inputs_hash: string;
  evaluated_at: string;
}

export interface StoredEntry extends HistoryEntry {
  obs_key: string;
  inputs: EvalInputs;
}

const HISTORY_COLS = `id, trigger_id, event_id, source, source_id, source_version, ${iso('observed_at')} AS observed_at, observed_value, unit,
  distance_km, proximity_pct, state, previous_state, method, rule_version, inputs_hash, ${iso('evaluated_at')} AS evaluated_at`;

/**
 * Provenance of an entry read back (docs/contract.md#provenance): an evaluated event's source_url and ingested_at from the
 * event record; a value entered by hand links to the observations resource it was entered at, ingested
 * when the latest of its readings was entered. `h` and `e` are the history and (left-joined) events aliases.
 */
const ENTERED_SOURCE = 'trigger-observe';
export const provenanceCols = (h: string, e: string) => `
  CASE WHEN ${h}.source = '${ENTERED_SOURCE}' THEN '/api/v1/triggers/' || ${h}.trigger_id || '/observations' ELSE ${e}.source_url END AS source_url,
  ${iso(`CASE WHEN ${h}.source = '${ENTERED_SOURCE}'
    THEN (SELECT max(o.entered_at) FROM trigger_observations o WHERE o.trigger_id = ${h}.trigger_id AND list_contains(string_split(substr(${h}.source_version, 9), ','), o.id))
    ELSE ${e}.ingested_at END`)} AS ingested_at`;
export const joinEvents = (h: string, e: string) =>
  `LEFT JOIN events ${e} ON ${e}.id = TRY_CAST(${h}.event_id AS UUID)`;

/** An entry as answers show it: with its source's link and ingest time. */
export interface HistoryEntryView extends HistoryEntry {
  source_url: string | null;
  ingested_at: string | null;
}

export async function existingKeys(db: Store): Promise<Set<string>> {
  const rows = await db.all<{ k: string }>(
    `SELECT h.trigger_id || '#' || h.obs_key AS k FROM trigger_history h JOIN triggers t ON t.id = h.trigger_id WHERE t.status = 'active'`,
  );
  return new Set(rows.map((r) => r.k));
}

/**
 * The history columns with the type each value is cast to. Entries go through the appender
 * (src/store/bulk.ts), inside the round's transaction: a round writes thousands of entries, and bound
 * multi-row INSERTs of them took most of an evaluation round's time.
 */
const ENTRY_COLS =
  cols(`id, trigger_id, obs_key, event_id, source, source_id, source_version, observed_at:TIMESTAMP, observed_value:DOUBLE, unit,
  distance_km:DOUBLE, proximity_pct:DOUBLE, state, previous_state, method, rule_version, inputs:JSON, inputs_hash, evaluated_at:TIMESTAMP`);
/** Rows per UPDATE of trigger states: one statement per row costs about a millisecond each in DuckDB, a batch about the same. */
const BATCH = 250;

/** Appends entries. */
export async function insertEntries(tx: Tx, entries: StoredEntry[]): Promise<void> {
  const value = (e: StoredEntry, c: string) =>
    c === 'inputs' ? JSON.stringify(e.inputs) : (e[c as keyof StoredEntry] as string | number | null);
  await insertRows(
    tx,
    'trigger_history',
    ENTRY_COLS,
    entries.map((e) => ENTRY_COLS.map((c) => value(e, c.name))),
  );
}

/** A page of a trigger's history, newest first; `after` is the last entry's (evaluated_at, id) of the previous page. */
export async function historyPage(
  db: Store,
  triggerId: string,
  limit: number,
  after?: { at: string; id: string },
): Promise<{ total: number; rows: HistoryEntryView[] }> {
  const total = await db.one<{ n: bigint }>('SELECT count(*) AS n FROM trigger_history WHERE trigger_id = $t', {
    t: triggerId,
  });
  const params: Record<string, string | number> = { t: triggerId, limit };
  let where = 'trigger_id = $t';
  if (after) {
    Object.assign(params, { aAt: after.at, aId: after.id });
    where += ' AND (evaluated_at < $aAt::TIMESTAMP OR (evaluated_at = $aAt::TIMESTAMP AND id < $aId))';
  }
  const rows = await db.all<HistoryEntryView>(
    `SELECT h.*, ${provenanceCols('h', 'e')} FROM (SELECT ${HISTORY_COLS} FROM trigger_history WHERE ${where} ORDER BY evaluated_at DESC, id DESC LIMIT $limit) h
      ${joinEvents('h', 'e')} ORDER BY h.evaluated_at DESC, h.id DESC`,
    params,
  );
  return { total: Number(total?.n ?? 0), rows };
}

/** Every entry of a trigger with its stored inputs, oldest first (verify). */
export async function allEntries(db: Store, triggerId: string): Promise<StoredEntry[]> {
  const rows = await db.all<StoredEntry & { inputs: string }>(
    `SELECT ${HISTORY_COLS}, obs_key, inputs::VARCHAR AS inputs FROM trigger_history WHERE trigger_id = $t`,
    { t: triggerId },
  );
  return rows
    .map((r) => ({ ...r, inputs: JSON.parse(r.inputs) as EvalInputs }))
    .sort((a, b) => a.evaluated_at.localeCompare(b.evaluated_at) || a.id.localeCompare(b.id));
}

export interface AlertRow {
  id: string;
  trigger_id: string;
  trigger_name: string;
  kind: 'alert' | 'triggered';
  event_id: string | null;
  history_id: string;
  proximity_pct: number;
  created_at: string;
  read_at: string | null;
  /** Provenance of the entry that raised the alert. */
  source: string | null;
  source_url: string | null;
  ingested_at: string | null;
}

export interface NewAlert {
  id: string;
  trigger_id: string;
  account: string;
  history_id: string;
  kind: 'alert' | 'triggered';
  event_key: string;
  proximity_pct: number;
  created_at: string;
}

/** The (trigger, event, kind) of every alert raised before: each is raised once. */
export async function raisedAlertKeys(db: Store): Promise<Set<string>> {
  const rows = await db.all<{ k: string }>(
    `SELECT trigger_id || '#' || event_key || '#' || kind AS k FROM trigger_alerts`,
  );
  return new Set(rows.map((r) => r.k));
}

const ALERT_COLS = cols(
  'id, trigger_id, account, history_id, kind, event_key, proximity_pct:DOUBLE, created_at:TIMESTAMP, read_at:TIMESTAMP',
);

export async function insertAlerts(tx: Tx, alerts: NewAlert[]): Promise<void> {
  const value = (a: NewAlert, c: string) => (c === 'read_at' ? null : a[c as keyof NewAlert]);
  await insertRows(
    tx,
    'trigger_alerts',
    ALERT_COLS,
    alerts.map((a) => ALERT_COLS.map((c) => value(a, c.name))),
  );
}

/** Sets state and proximity of many triggers in BATCH-row statements. */
export async function updateStates(
  tx: Tx,
  rows: Array<{ id: string; state: TriggerState; proximity_pct: number }>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    const params: Array<string | number> = [];
    const values = rows.slice(i, i + BATCH).map((r) => {
      params.push(r.id, r.state, r.proximity_pct);
      const n = params.length;
      return `($${n - 2}, $${n - 1}, $${n}::DOUBLE)`;
    });
    await tx.run(
      `UPDATE triggers SET state = v.state, proximity_pct = v.p FROM (VALUES ${values.join(', ')}) AS v(id, state, p) WHERE triggers.id = v.id`,
      params,
    );
  }
}

/** Unread alerts of an account, oldest first; with markRead they are marked read as they are returned. */
export async function unreadAlerts(db: Store, account: string, markRead: boolean, at: string): Promise<AlertRow[]> {
  const rows = await db.all<AlertRow>(
    `SELECT a.id, a.trigger_id, t.name AS trigger_name, a.kind, h.event_id, a.history_id, a.proximity_pct, ${iso('a.created_at')} AS created_at, ${iso('a.read_at')} AS read_at,
            h.source, ${provenanceCols('h', 'e')}
       FROM trigger_alerts a JOIN triggers t ON t.id = a.trigger_id LEFT JOIN trigger_history h ON h.id = a.history_id ${joinEvents('h', 'e')}
      WHERE a.account = $account AND a.read_at IS NULL AND a.created_at <= $at::TIMESTAMP`,
    { account, at },
  );
  rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  if (markRead && rows.length > 0) {
    await db.run(
      `UPDATE trigger_alerts SET read_at = $at::TIMESTAMP WHERE account = $account AND read_at IS NULL AND created_at <= $at::TIMESTAMP`,
      { account, at },
    );
  }
  return rows;
}

export async function insertObservation(
  db: Store,
  o: {
    id: string;
    trigger_id: string;
    event_ref: string | null;
    event_id: string | null;
    value: number;
    unit: string;
    source: string;
    observed_at: string;
    entered_at: string;
  },
): Promise<void> {
  await db.run(
    `INSERT INTO trigger_observations (id, trigger_id, seq, event_ref, event_id, value, unit, source, observed_at, entered_at)
     VALUES ($id, $trigger_id, (SELECT count(*) + 1 FROM trigger_observations WHERE trigger_id = $trigger_id), $event_ref, $event_id, $value, $unit, $source, $observed_at::TIMESTAMP, $entered_at::TIMESTAMP)`,
    o,
  );
}

/** An entered value as stored (verify re-reads it). */
export async function observationById(
  db: Store,
  id: string,
): Promise<{ id: string; seq: number; at: string; value: number; unit: string; source: string } | undefined> {
  return db.one(
    `SELECT id, seq, ${iso('observed_at')} AS at, value, unit, source FROM trigger_observations WHERE id = $id`,
    { id },
  );
}
