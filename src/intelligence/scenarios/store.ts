/** Stored scenarios (migration 6): the request and the result, per account, by id. */
import type { Store } from '../../store/db.js';

export interface ScenarioRow {
  id: string;
  account: string;
  name: string | null;
  event_type: string;
  request: string;
  result: string;
  created_at: string;
}

export async function insertScenario(db: Store, r: ScenarioRow): Promise<void> {
  await db.run(
    `INSERT INTO scenarios (id, account, name, event_type, request, result, created_at)
     VALUES ($id, $account, $name, $event_type, $request::JSON, $result::JSON, $created_at::TIMESTAMP)`,
    { ...r },
  );
}

/** The scenario when it belongs to the account (another account's is as unknown as a missing one). */
export async function getScenario(db: Store, id: string, account: string): Promise<ScenarioRow | undefined> {
  const rows = await db.all<ScenarioRow>(
    `SELECT id, account, name, event_type, request::VARCHAR AS request, result::VARCHAR AS result,
            strftime(created_at, '%Y-%m-%dT%H:%M:%SZ') AS created_at
       FROM scenarios WHERE id = $id AND account = $account`,
    { id, account },
  );
  return rows[0];
}
