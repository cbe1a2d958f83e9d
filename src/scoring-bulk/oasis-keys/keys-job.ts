/**
 * The Oasis keys job, in a worker thread beside the main pass (format-oasis.ts starts it). It reads the
 * input on its own, writes `d,PortNumber,AccNumber,LocNumber` for every data row (side-files.ts) and has its
 * own DuckDB rank them while the main thread is still writing location.csv, then writes keys.csv as the
 * main pass flushes what became of each row, and keys-errors.csv at the end (write-keys.ts). On two cores
 * the keys then cost little more than the main pass. The same function runs in the main thread, after
 * the main pass, when there is no compiled worker.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { withDuck } from '../scratch-duckdb.js';
import { sidePaths, writeOasisKeys, type MainFeed, type SideOfMain } from './write-keys.js';
import { OutFile } from '../out-file.js';
import { KeyLineWriter, type KeyColumns } from './side-files.js';
import { readRows } from '../../csv/read-rows.js';

export interface KeysJob {
  kind: 'catintel-keys-job';
  file: string;
  dataStart: number;
  outDir: string;
  token: string;
  columns: KeyColumns;
  /** The header's field count (readRows expectFields: both passes must find the same rows). */
  expectFields: number;
}

export interface KeysOutcome {
  keys: number;
  keysErrors: number;
}

export type KeysResult = ({ ok: true } & KeysOutcome) | { ok: false; message: string; code?: string };

/** Main thread -> keys job: rows flushed so far, then the totals. */
export type MainMessage =
  { type: 'flushed'; locationRows: number; excluded: number } | { type: 'done'; main: SideOfMain };

/** A MainFeed fed by messages (the worker's port, or the main thread itself). */
export class MessageFeed implements MainFeed {
  private flushed = 0;
  private excluded = 0;
  private done: SideOfMain | null = null;
  private waiting: (() => void) | null = null;

  push(m: MainMessage): void {
    if (m.type === 'flushed') {
      if (this.done) return; // a late report of rows written before the end
      this.flushed = m.locationRows;
      this.excluded = m.excluded;
    } else {
      this.done = m.main;
      this.flushed = m.main.locationRows;
      this.excluded = m.main.excluded;
    }
    this.waiting?.();
  }

  async wait(seen: number): Promise<{ flushed: number; excluded: number; done: SideOfMain | null }> {
    while (!this.done && this.flushed <= seen && this.excluded === 0)
      await new Promise<void>((r) => (this.waiting = r));
    this.waiting = null;
    return { flushed: this.flushed, excluded: this.excluded, done: this.done };
  }

  async finished(): Promise<SideOfMain> {
    while (!this.done) await new Promise<void>((r) => (this.waiting = r));
    this.waiting = null;
    return this.done;
  }
}

export async function keysJob(job: KeysJob, feed: MainFeed): Promise<KeysOutcome> {
  // DuckDB (a large native library) loads and starts while the keys are read, not after.
  const written = writePending(job);
  written.catch(() => undefined); // awaited below; this only keeps a failure while DuckDB loads from being unhandled
  return withDuck(job.outDir, job.token, async (d) => {
    await written;
    return writeOasisKeys(d, sidePaths(job.outDir, job.token), feed, job.columns.perils);
  });
}

/** keys-pending.csv: `d,P,A,L` for every data row. */
async function writePending(job: KeysJob): Promise<void> {
  const pending = await OutFile.create(job.outDir, 'keys-pending.csv', job.token);
  const lines = new KeyLineWriter(job.columns, pending);
  try {
    // Only the key fields are split (the rest of a row is skipped by the scanner's memchr): a row the main
    // pass keeps has every field, so its key fields read the same either way.
    const fieldLimit = Math.max(1, lines.last + 1);
    await readRows(
      {
        file: job.file,
        dataStart: job.dataStart,
        delimiter: job.columns.delimiter,
        fieldLimit,
        expectFields: job.expectFields,
        afterChunk: () => pending.drain(),
      },
      (r) => lines.row(r),
    );
    await pending.close();
  } catch (err) {
    await pending.discard();
    throw err;
  }
}

// Only as the worker OasisSink starts (a test runner's own worker threads import this module too).
if (parentPort && (workerData as KeysJob | undefined)?.kind === 'catintel-keys-job') {
  const port = parentPort;
  const feed = new MessageFeed();
  port.on('message', (m: MainMessage) => feed.push(m));
  keysJob(workerData as KeysJob, feed).then(
    (r) => port.postMessage({ ok: true, ...r } satisfies KeysResult),
    (err: unknown) =>
      port.postMessage({
        ok: false,
        message: err instanceof Error ? err.message : String(err),
        code: (err as { code?: string })?.code,
      } satisfies KeysResult),
  );
}
