/**
 * The api_keys table (migration 2). The store never sees a key, only its SHA-256; lookups go by hash.
 *
 * A running server checks every request's key here. Positive lookups are cached per Store, and every
 * write to the table in this process (create, revoke) clears that cache. That is complete, not a
 * best effort: a read-write Store holds DuckDB's exclusive file lock, so while `catintel serve` runs no
 * other process can write the table at all; `catintel keys revoke` reaches a running server through
 * its admin endpoint (src/channel/remote.ts), which revokes through this module.
 */
import type { Store } from './db.js';
import type { Tier } from '../caller.js';

export interface ApiKeyRecord {
  id: string;
  name: string;
  tier: Exclude<Tier, 'free'>;
  account: string;
  sandbox: boolean;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

const iso = (col: string) => `strftime(${col}, '%Y-%m-%dT%H:%M:%SZ')`;
const SELECT = `SELECT id, name, tier, account, sandbox, prefix, ${iso('created_at')} AS created_at, ${iso('revoked_at')} AS revoked_at FROM api_keys`;

/** Active keys by hash, per store; cleared by every write below. */
const activeByHash = new WeakMap<Store, Map<string, ApiKeyRecord>>();
const MAX_CACHED = 10_000;

function cacheOf(db: Store): Map<string, ApiKeyRecord> {
  let m = activeByHash.get(db);
  if (!m) activeByHash.set(db, (m = new Map()));
  return m;
}

export async function insertApiKey(db: Store, key: Omit<ApiKeyRecord, 'revoked_at'>, keyHash: string): Promise<void> {
  await db.run(
    `INSERT INTO api_keys (id, name, tier, account, sandbox, prefix, key_hash, created_at, revoked_at)
     VALUES ($id, $name, $tier, $account, $sandbox, $prefix, $hash, $created::TIMESTAMP, NULL)`,
    {
      id: key.id,
      name: key.name,
      tier: key.tier,
      account: key.account,
      sandbox: key.sandbox,
      prefix: key.prefix,
      hash: keyHash,
      created: key.created_at,
    },
  );
  cacheOf(db).clear();
}

export async function listApiKeys(db: Store, opts: { includeRevoked?: boolean } = {}): Promise<ApiKeyRecord[]> {
  // Sorted here, not with ORDER BY: Store re-executes cached prepared statements, and DuckDB 1.5's
  // compressed materialization then sorts with the statistics of the first run, returning corrupted
  // rows once the table has grown (a store-wide issue, reported). Key lists are small.
  const rows = await db.all<ApiKeyRecord>(`${SELECT} ${opts.includeRevoked ? '' : 'WHERE revoked_at IS NULL'}`);
  return rows.sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

export async function findApiKey(db: Store, id: string): Promise<ApiKeyRecord | undefined> {
  return db.one<ApiKeyRecord>(`${SELECT} WHERE id = $id`, { id });
}

/** Marks the key revoked (keeping the first revocation time when repeated); undefined for an unknown id. */
export async function revokeApiKey(db: Store, id: string, at: string): Promise<ApiKeyRecord | undefined> {
  // Cleared before and after: a request racing the revoke must not re-cache the key in between.
  cacheOf(db).clear();
  await db.run('UPDATE api_keys SET revoked_at = $at::TIMESTAMP WHERE id = $id AND revoked_at IS NULL', { id, at });
  cacheOf(db).clear();
  return findApiKey(db, id);
}

/** The active (not revoked) key with this hash, or undefined. */
export async function activeApiKeyByHash(db: Store, keyHash: string): Promise<ApiKeyRecord | undefined> {
  const cache = cacheOf(db);
  const hit = cache.get(keyHash);
  if (hit) return hit;
  const row = await db.one<ApiKeyRecord>(`${SELECT} WHERE key_hash = $hash AND revoked_at IS NULL`, { hash: keyHash });
  if (row) {
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(keyHash, row);
  }
  return row;
}
