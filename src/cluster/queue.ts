/**
 * The job queue of a scale-out run (docs/scale-out.md): pg-boss on the PostgreSQL that `--queue` names.
 * A bulk scoring run is one job per row range (a chunk); `catintel worker` processes take them. pg-boss
 * gives each job an expiry: a chunk whose worker died is failed by timeout and retried, by another worker.
 *
 * The URL is checked, then one connection is tried before pg-boss starts, so a wrong URL or a PostgreSQL
 * that is not there is one line naming the value (the password is never shown) and the fix.
 */
import pg from 'pg';
import PgBoss from 'pg-boss';
import { CatintelError } from '../errors.js';
import { shown } from './queue-url.js';
import type { Horizon, Scenario } from '../domain/climate.js';
import type { Peril } from '../domain/scoring/perils.js';
import type { KeepColumns } from '../scoring-bulk/keep-columns.js';
import type { RowRange } from '../scoring-bulk/row-ranges.js';
import type { BulkFormat, BulkSummary } from '../scoring-bulk/types.js';

export const SCORE_QUEUE = 'catintel-score-chunks';

/** One chunk of a bulk scoring run, as a worker receives it. Paths are absolute, on storage both share. */
export interface ChunkJob {
  run: string;
  chunk: number;
  chunks: number;
  input: string;
  format: BulkFormat;
  perils: Peril[];
  scenario: Scenario;
  horizon: Horizon | null;
  keepColumns: KeepColumns;
  range: RowRange;
  /** The run's work directory: each attempt writes its own part directory in it. */
  workDir: string;
}

/** What a worker reports for a finished chunk (the job's output). */
export interface ChunkDone {
  dir: string;
  summary: BulkSummary;
  worker: string;
}

export interface QueueOptions {
  /** Called with pg-boss's background errors (a lost connection), which would otherwise end the process. */
  onError?: (err: Error) => void;
}

/** Connects (one clear line if PostgreSQL cannot be reached), starts pg-boss and makes sure the queue exists. */
export async function openQueue(url: string, o: QueueOptions = {}): Promise<PgBoss> {
  const setup = await connected(url);
  const boss = new PgBoss({
    connectionString: url,
    max: 4,
    application_name: 'catintel',
    // The submitter expires timed-out chunks itself while it waits (submit.ts); no process runs pg-boss's
    // timers, so a stopped run leaves no background work behind.
    supervise: false,
    schedule: false,
  });
  boss.on('error', (err: Error) => o.onError?.(err));
  try {
    // pg-boss's schema install and createQueue are not safe against themselves in sessions that start
    // together: a submitter and its workers started at once made PostgreSQL report a deadlock. One process
    // sets up at a time; the lock is the setup session's, released when it ends.
    await setup.query(`SELECT pg_advisory_lock(hashtext('catintel_queue_setup'))`);
    await boss.start();
    await boss.createQueue(SCORE_QUEUE);
  } catch (err) {
    await boss.stop({ graceful: false, wait: false }).catch(() => undefined);
    throw unreachable(url, err);
  } finally {
    await setup.end().catch(() => undefined);
  }
  return boss;
}

/** One connection, asked one query, or one line saying why not: refused, unknown host, wrong password or database. */
async function connected(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return client;
  } catch (err) {
    await client.end().catch(() => undefined);
    throw unreachable(url, err);
  }
}

function unreachable(url: string, err: unknown): CatintelError {
  const e = err as { code?: string; message?: string };
  const reason =
    e.code === 'ECONNREFUSED'
      ? 'connection refused (is PostgreSQL running there?)'
      : e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN'
        ? 'unknown host'
        : (e.message ?? String(err)).split('\n')[0];
  return new CatintelError(
    'unavailable',
    `--queue ${shown(url)}: cannot use PostgreSQL: ${reason}; start PostgreSQL there or give the URL of one that runs`,
    { cause: err },
  );
}
