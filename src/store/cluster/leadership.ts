/**
 * One leader per role across the processes of a cluster store (docs/cluster-store.md#one-ingest-per-source):
 * a role (`ingest usgs-earthquakes`) is a PostgreSQL session-level advisory lock, held on a connection of
 * its own for as long as the work runs. A second process asking for the role while it is held is refused at
 * once; when the leader ends, or dies (its connection closes with it), any process can take the role next.
 */
import { CatintelError } from '../../errors.js';
import { connectClient } from './open-cluster.js';
import type { ClusterAddress } from './store-url.js';

export async function asLeader<T>(address: ClusterAddress, role: string, fn: () => Promise<T>): Promise<T> {
  const client = await connectClient(address);
  try {
    const got = await client.query<{ held: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS held', [
      role,
    ]);
    if (!got.rows[0].held) {
      throw new CatintelError(
        'store_locked',
        `${role} is running in another process on cluster store ${address.shown} (one at a time); it goes on there, or wait for it to finish`,
      );
    }
    return await fn();
  } finally {
    // Ending the session releases the lock, as a leader's death does.
    await client.end().catch(() => undefined);
  }
}
