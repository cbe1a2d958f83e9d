/**
 * The sliding-window rate limit of src/http/rate-limit.ts, held in PostgreSQL so that it is exact across
 * every `serve` replica of a cluster store: each allowed request is a row (key, time), and a check-and-record
 * runs in one transaction under an advisory lock on the key, so two replicas can never both take the last
 * slot. Times are PostgreSQL's clock, the one clock every replica shares. Refused requests are not recorded,
 * as in the in-memory limiter.
 *
 * One round trip per statement on a small pool: about a millisecond on a local network, paid by every request
 * of a cluster server; a single-file server keeps the in-memory limiter.
 */
import pg from 'pg';
import { CatintelError } from '../../errors.js';
import type { ClusterAddress } from './store-url.js';

export interface WindowDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  resetSeconds: number;
}

const TABLE = 'catintel_rate_hits';

export class SharedRateWindow {
  private readonly pool: pg.Pool;
  private ready?: Promise<unknown>;

  constructor(
    address: ClusterAddress,
    readonly windowMs: number,
  ) {
    this.pool = new pg.Pool({ ...address.client, max: 4, connectionTimeoutMillis: 5_000 });
    this.pool.on('error', () => undefined); // an idle client's lost connection: the next query opens another
  }

  async hit(key: string, limit: number): Promise<WindowDecision> {
    try {
      return await this.record(key, limit);
    } catch (err) {
      throw new CatintelError(
        'unavailable',
        `the rate limit shared by the servers of this store (in PostgreSQL) cannot be read: ${(err as Error).message.split('\n')[0]}; retry shortly`,
        { cause: err },
      );
    }
  }

  private async record(key: string, limit: number): Promise<WindowDecision> {
    this.ready ??= this.pool
      .query(
        `CREATE TABLE IF NOT EXISTS ${TABLE} (key text NOT NULL, at timestamptz NOT NULL);
         CREATE INDEX IF NOT EXISTS ${TABLE}_key_at ON ${TABLE} (key, at)`,
      )
      .catch((err) => {
        this.ready = undefined;
        throw err;
      });
    await this.ready;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
      const windowSql = `make_interval(secs => $2::double precision / 1000)`;
      await client.query(`DELETE FROM ${TABLE} WHERE key = $1 AND at <= clock_timestamp() - ${windowSql}`, [
        key,
        this.windowMs,
      ]);
      const counted = await client.query<{ n: string; reset_ms: number | null }>(
        `SELECT count(*) AS n,
                extract(epoch FROM min(at) + ${windowSql} - clock_timestamp()) * 1000 AS reset_ms
           FROM ${TABLE} WHERE key = $1`,
        [key, this.windowMs],
      );
      let n = Number(counted.rows[0].n);
      let resetMs = counted.rows[0].reset_ms;
      const allowed = n < limit;
      if (allowed) {
        await client.query(`INSERT INTO ${TABLE} VALUES ($1, clock_timestamp())`, [key]);
        n++;
        resetMs ??= this.windowMs;
      }
      await client.query('COMMIT');
      const windowSeconds = Math.ceil(this.windowMs / 1000);
      const resetSeconds =
        n === 0 ? 0 : Math.min(windowSeconds, Math.max(1, Math.ceil(Number(resetMs ?? this.windowMs) / 1000)));
      return { allowed, limit, remaining: limit - n, resetSeconds };
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
