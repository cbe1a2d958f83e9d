/**
 * Change notices between the processes of a cluster store, on PostgreSQL's LISTEN/NOTIFY: a process that
 * commits a write announces it on one channel, and every `serve` replica listening there refreshes what it
 * holds in memory (the live index, cached answers, the event stream), as a server does after its own
 * writes on a DuckDB file. A notice carries the sender's id only, so a process skips its own; a replica
 * that was disconnected treats the reconnection itself as a change, since notices sent meanwhile are lost.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { ClusterAddress } from './store-url.js';
import { connectClient } from './open-cluster.js';

const CHANNEL = 'catintel_store_changed';

export class ChangeNotices {
  private readonly id = randomUUID();
  private sender?: Promise<pg.Client>;
  private listener?: pg.Client;

  constructor(readonly address: ClusterAddress) {}

  /** Tells every listening process that this one committed a write. */
  async announce(): Promise<void> {
    this.sender ??= connectClient(this.address);
    const client = await this.sender.catch((err) => {
      this.sender = undefined;
      throw err;
    });
    await client.query('SELECT pg_notify($1, $2)', [CHANNEL, this.id]);
  }

  /** Calls onChange whenever another process announces a write, until close(). */
  async listen(onChange: () => void): Promise<void> {
    const client = await connectClient(this.address);
    client.on('notification', (n) => {
      if (n.channel === CHANNEL && n.payload !== this.id) onChange();
    });
    // A dropped connection loses the notices sent meanwhile: listen again and count the gap as a change.
    client.on('error', () => undefined);
    client.on('end', () => {
      if (this.listener !== client) return;
      this.listener = undefined;
      setTimeout(() => void this.listen(onChange).then(onChange, () => undefined), 1000).unref();
    });
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
  }

  async close(): Promise<void> {
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    const sender = await this.sender?.catch(() => undefined);
    this.sender = undefined;
    await sender?.end().catch(() => undefined);
  }
}
