/**
 * The triggers table (migration 4). Every read is scoped to an account: another account's trigger is
 * simply not found (docs/contract.md#triggers: 404, never 403), so no caller can learn that an id exists.
 */
import type { Store, Tx } from '../store/db.js';
import type { TriggerSpec, TriggerView } from './domain/types.js';

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;
export const TRIGGER_SELECT = `SELECT id, account, name, peril, lat, lng, radius_km, threshold_type, threshold_value, alert_at_pct, notes, status,
  ${iso('created_at')} AS created_at, ${iso('deactivated_at')} AS deactivated_at, ${iso('last_evaluated_at')} AS last_evaluated_at,
  state, proximity_pct FROM triggers`;

/**
 * The active trigger with this id if it belongs to `account`; undefined for an unknown id, someone else's,
 * or one deactivated (DELETE ends the resource: every route then answers 404; its rows stay in the store).
 */
export async function getTrigger(db: Store, account: string, id: string): Promise<TriggerView | undefined> {
  return db.one<TriggerView>(`${TRIGGER_SELECT} WHERE id = $id AND account = $account AND status = 'active'`, {
    id,
    account,
  });
}

/** The trigger whatever its status (deactivate answers the trigger it just ended). */
export async function getAnyTrigger(db: Store, account: string, id: string): Promise<TriggerView | undefined> {
  return db.one<TriggerView>(`${TRIGGER_SELECT} WHERE id = $id AND account = $account`, { id, account });
}

export async function insertTrigger(db: Store | Tx, t: TriggerSpec): Promise<void> {
  await db.run(
    `INSERT INTO triggers (id, account, name, peril, lat, lng, radius_km, threshold_type, threshold_value, alert_at_pct, notes, status, created_at, state, proximity_pct)
     VALUES ($id, $account, $name, $peril, $lat, $lng, $radius_km, $threshold_type, $threshold_value, $alert_at_pct, $notes, $status, $created_at::TIMESTAMP, 'clear', 0)`,
    { ...t },
  );
}

/** Active triggers of one account, oldest first (the order they were created in). */
export async function listActiveTriggers(db: Store, account: string): Promise<TriggerView[]> {
  const rows = await db.all<TriggerView>(`${TRIGGER_SELECT} WHERE account = $account AND status = 'active'`, {
    account,
  });
  return rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

/** Every active trigger in the store (the evaluation run covers all accounts). */
export async function allActiveTriggers(db: Store): Promise<TriggerView[]> {
  const rows = await db.all<TriggerView>(`${TRIGGER_SELECT} WHERE status = 'active'`);
  return rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

/** Marks the trigger inactive and answers it; undefined when the account has no such trigger. */
export async function deactivateTrigger(
  db: Store,
  account: string,
  id: string,
  at: string,
): Promise<TriggerView | undefined> {
  await db.run(
    `UPDATE triggers SET status = 'inactive', deactivated_at = $at::TIMESTAMP WHERE id = $id AND account = $account AND status = 'active'`,
    { id, account, at },
  );
  return getAnyTrigger(db, account, id);
}
