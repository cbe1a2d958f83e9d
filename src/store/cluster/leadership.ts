/**
 * One process at a time across the processes of a cluster store, on PostgreSQL session-level advisory locks
 * held on a connection of their own for as long as the work runs; when the holder ends, or dies (its
 * connection closes with it), the lock is free again.
 *
 * - asLeader: one leader per role (`ingest usgs-earthquakes`, docs/cluster-store.md#one-ingest-per-source);
 *   a second process asking while it is held is refused at once.
 * - inTurn: short work that must not interleave with itself anywhere (counting an account's active triggers
 *   and adding one); a second process waits its turn.
 */
import type pg from 'pg';
import { CatintelError } from '../../errors.js';
import { connectClient } from './open-cluster.js';
import type { ClusterAddress } from './store-url.js';

export function asLeader<T>(address: ClusterAddress, role: string, fn: () => Promise<T>): Promise<T> {
  return holding(address, async (client) => {
    const got = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS held', [
      role,
    ]);
    if (!got.rows[0].held) {
      throw new CatintelError(
        'store_locked',
        `${role} is running in another process on cluster store ${address.shown} (one at a time); it goes on there, or wait for it to finish`,
      );
    }
    return fn();
  });
}

export function inTurn<T>(address: ClusterAddress, key: string, fn: () => Promise<T>): Promise<T> {
  return holding(address, async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
    return fn();
  });
}

/** fn on a PostgreSQL session of its own; ending the session releases its locks, as the holder's death does. */
async function holding<T>(address: ClusterAddress, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = await connectClient(address);
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}
