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
  private retry?: NodeJS.Timeout;
  private closed = false;

  constructor(readonly address: ClusterAddress) {}

  /** Tells every listening process that this one committed a write. */
  async announce(): Promise<void> {
    this.sender ??= connectClient(this.address).then((client) => {
      // Cut (PostgreSQL restarted): the next notice connects again.
      client.on('end', () => (this.sender = undefined));
      return client;
    });
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
    client.on('end', () => {
      if (this.listener !== client) return; // closed by close()
      this.listener = undefined;
      this.relisten(onChange);
    });
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
  }

  /** Listens again a second later, and again until PostgreSQL answers, unless closed meanwhile. */
  private relisten(onChange: () => void): void {
    this.retry = setTimeout(() => {
      if (this.closed) return;
      this.listen(onChange).then(onChange, () => this.relisten(onChange));
    }, 1000);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
    const sender = await this.sender?.catch(() => undefined);
    this.sender = undefined;
    await sender?.end().catch(() => undefined);
  }
}
