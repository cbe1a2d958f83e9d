/**
 * `catintel worker --queue postgres://...`: takes chunk jobs from the queue (queue.ts) one at a time and
 * scores each with the single-node bulk scorer (src/scoring-bulk/run.ts, given the chunk's row range), into a
 * part directory of its own under the run's work directory. The part is complete when its manifest.json is
 * there (run.ts writes it last), and the job is completed with the part's directory and summary; the
 * submitting process registers the parts and assembles the outputs (commit-parts.ts).
 *
 * Stopping: a first SIGTERM or SIGINT lets the chunk in hand finish (its job completes), then the worker
 * exits 0; a second one abandons the chunk (its temporaries are removed) and fails its job, which pg-boss
 * puts back for another worker. A worker that is killed outright leaves its job active until the job's
 * expiry, when the submitter fails it by timeout and it is retried; the dead worker's part directory has no
 * manifest and is never registered.
 */
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Logger, ProgressEvent } from '../context.js';
import { scoreCsv } from '../scoring-bulk/run.js';
import { SCORE_QUEUE, openQueue, type ChunkDone, type ChunkJob } from './queue.js';

export interface WorkerOptions {
  queue: string;
  /** Exit 0 after this many seconds with no chunk to take (undefined: run until stopped). */
  idleExitSeconds?: number;
  /** Seconds between looks at an empty queue. */
  pollSeconds?: number;
  progress?: (e: ProgressEvent) => void;
  log?: Logger;
  /** Aborted on the first stop request (finish the chunk in hand); `kill` on the second (abandon it). */
  stop: AbortSignal;
  kill: AbortSignal;
}

export interface WorkerSummary {
  worker: string;
  chunks: number;
  rows: number;
  failed: number;
  stopped_by: 'signal' | 'idle';
  seconds: number;
}

export async function runWorker(o: WorkerOptions): Promise<WorkerSummary> {
  const t0 = performance.now();
  const worker = `${os.hostname()}:${process.pid}`;
  const boss = await openQueue(o.queue, { onError: (err) => o.log?.('warn', `queue: ${err.message}`) });
  const summary: WorkerSummary = { worker, chunks: 0, rows: 0, failed: 0, stopped_by: 'signal', seconds: 0 };
  const poll = (o.pollSeconds ?? 0.5) * 1000;
  let idleSince = performance.now();
  try {
    while (!o.stop.aborted) {
      const [job] = await boss.fetch<ChunkJob>(SCORE_QUEUE, { batchSize: 1 });
      if (!job) {
        if (o.idleExitSeconds !== undefined && performance.now() - idleSince >= o.idleExitSeconds * 1000) {
          summary.stopped_by = 'idle';
          break;
        }
        await sleep(poll, o.stop);
        continue;
      }
      const c = job.data;
      const started = performance.now();
      try {
        const done = await scoreChunk(c, worker, o.kill);
        await boss.complete(SCORE_QUEUE, job.id, done as unknown as object);
        summary.chunks++;
        summary.rows += done.summary.rows;
        o.progress?.({
          task: 'worker',
          done: summary.chunks,
          unit: 'chunks',
          message: `run ${c.run} chunk ${c.chunk + 1}/${c.chunks}: ${done.summary.rows} rows in ${((performance.now() - started) / 1000).toFixed(1)} s`,
        });
      } catch (err) {
        summary.failed++;
        const message = (err as Error)?.message ?? String(err);
        // Failed, the job is retried (by any worker) until its retry limit; the submitter reports the last failure.
        await boss.fail(SCORE_QUEUE, job.id, { message, worker }).catch(() => undefined);
        o.progress?.({
          task: 'worker',
          done: summary.chunks,
          unit: 'chunks',
          message: `run ${c.run} chunk ${c.chunk + 1}/${c.chunks} failed: ${message}`,
        });
        if (o.kill.aborted) break;
      }
      idleSince = performance.now();
    }
  } finally {
    await boss.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
  }
  summary.seconds = Math.round(performance.now() - t0) / 1000;
  return summary;
}

/** Scores one chunk into a part directory of this attempt's own (a retry never writes into another's). */
async function scoreChunk(c: ChunkJob, worker: string, signal: AbortSignal): Promise<ChunkDone> {
  const dir = path.join(c.workDir, `chunk-${c.chunk}.${process.pid}-${randomBytes(4).toString('hex')}`);
  const summary = await scoreCsv({
    input: c.input,
    outDir: dir,
    format: c.format,
    perils: c.perils,
    scenario: c.scenario,
    horizon: c.horizon,
    keepColumns: c.keepColumns,
    range: c.range,
    signal,
  });
  return { dir, summary, worker };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
}
