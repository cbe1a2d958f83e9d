/**
 * The cluster store tests' PostgreSQL: src/cluster/throwaway-postgres.ts's server, plus a fresh database and
 * a data directory of its own for each cluster store a test creates (docs/cluster-store.md).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startThrowawayPostgres } from '../../src/cluster/throwaway-postgres.js';

export interface ThrowawayPostgres {
  port: number;
  /** A new empty database's cluster-store address, with a data directory of its own. */
  storeAddress(database: string): Promise<string>;
  /** A fast shutdown and start again on the same port: every client's connection is cut. */
  restart(): void;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<ThrowawayPostgres> {
  const server = await startThrowawayPostgres();
  const lake = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-lake-'));
  return {
    port: server.port,
    async storeAddress(database) {
      const client = new pg.Client({ connectionString: server.url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${database}"`);
      } finally {
        await client.end();
      }
      return `postgres://catintel@127.0.0.1:${server.port}/${database}?data=${path.join(lake, database)}`;
    },
    restart: () => server.restart(),
    async stop() {
      try {
        await server.close();
      } finally {
        fs.rmSync(lake, { recursive: true, force: true });
      }
    },
  };
}
