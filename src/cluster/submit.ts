/**
 * `catintel score ... --queue postgres://...` (docs/scale-out.md): the input is cut into row ranges
 * (src/scoring-bulk/row-ranges.ts), one job each on the queue; `catintel worker` processes score them; this
 * process waits (progress on stderr), expiring the chunks of workers that died so they are retried, then
 * commits: the parts are registered in one transaction and assembled in --out as a single-node run writes
 * it (commit-parts.ts).
 *
 * Nothing is made before PostgreSQL answered and the input's header passed. A run that fails, or is
 * interrupted, cancels its chunks still queued, removes its work directory and leaves --out as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type PgBoss from 'pg-boss';
import type { Logger } from '../context.js';
import { readInputHeader } from '../csv/header.js';
import { CatintelError } from '../errors.js';
import { runToken, tempPathOf } from '../lib/output-set.js';
import { prepareOutDir, removeEmpty, type OutDir } from '../scoring-bulk/out-dir.js';
import { rowRanges } from '../scoring-bulk/row-ranges.js';
import { nothingScored } from '../scoring-bulk/run-outcome.js';
import type { BulkRunOptions } from '../scoring-bulk/run.js';
import type { BulkSummary } from '../scoring-bulk/types.js';
import type { KeepColumns } from '../scoring-bulk/keep-columns.js';
import { assembleParts, registerParts } from './commit-parts.js';
import { SCORE_QUEUE, openQueue, type ChunkDone, type ChunkJob } from './queue.js';

export interface QueueRunOptions extends BulkRunOptions {
  queue: string;
  chunks: number;
  /** Shared storage every worker reaches (default: a hidden directory in --out). */
  workDir?: string;
  /** Seconds a worker may hold a chunk before it is taken for dead and the chunk retried. */
  chunkExpirySeconds: number;
  log?: Logger;
}

/** Tries of a chunk after its first (a chunk that failed on every try fails the run). */
const RETRY_LIMIT = 4;

export async function scoreOnQueue(o: QueueRunOptions): Promise<BulkSummary> {
  const t0 = performance.now();
  const header = await readInputHeader(o.input);
  const boss = await openQueue(o.queue, { onError: (err) => o.log?.('warn', `queue: ${err.message}`) });
  let out: OutDir | undefined;
  let workDir: string | undefined;
  const pending = new Map<string, number>();
  // Ctrl-C or SIGTERM while waiting: cancel the queued chunks and clean up, rather than leave them to run.
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  o.signal?.addEventListener('abort', onSignal, { once: true });
  try {
    const ranges = await rowRanges(header, o.chunks, o.signal);
    out = await prepareOutDir(o.outDir);
    const token = runToken();
    const run = randomUUID();
    // Named as a run's temporaries are: one a killed submitter leaves in --out is removed by the next run there.
    workDir = path.resolve(o.workDir ? path.join(o.workDir, run) : tempPathOf(o.outDir, 'parts', token));
    await fs.promises.mkdir(workDir, { recursive: true });
    const jobs: PgBoss.JobInsert<ChunkJob>[] = ranges.map((range, chunk) => {
      const id = randomUUID();
      pending.set(id, chunk);
      return {
        id,
        name: SCORE_QUEUE,
        data: {
          run,
          chunk,
          chunks: ranges.length,
          input: path.resolve(o.input),
          format: o.format,
          perils: o.perils,
          scenario: o.scenario,
          horizon: o.horizon,
          keepColumns: (o.keepColumns ?? 'all') as KeepColumns,
          range,
          workDir: workDir!,
        },
        expireInSeconds: o.chunkExpirySeconds,
        retryLimit: RETRY_LIMIT,
        retryDelay: 0,
      };
    });
    await boss.insert(jobs);
    const done = await waitForChunks(boss, pending, ranges.length, o, stop.signal);
    const parts = await registerParts(o.queue, run, done);
    if (parts.length !== ranges.length)
      throw new CatintelError('internal_error', `${parts.length} parts registered for ${ranges.length} chunks`);
    const summary = await assembleParts(parts, {
      outDir: o.outDir,
      token,
      base: { input: o.input, format: o.format, scenario: o.scenario, horizon: o.horizon, perils: o.perils },
    });
    summary.seconds = Math.round(performance.now() - t0) / 1000;
    if (summary.scored === 0) throw nothingScored(summary, path.join(o.outDir, 'errors.csv'));
    return summary;
  } catch (err) {
    if (pending.size) await boss.cancel(SCORE_QUEUE, [...pending.keys()]).catch(() => undefined);
    if (workDir) await fs.promises.rm(workDir, { recursive: true, force: true });
    workDir = undefined;
    if (out && !(err instanceof CatintelError && err.code === 'invalid_input')) await removeEmpty(out.created);
    throw err;
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    if (workDir) await fs.promises.rm(workDir, { recursive: true, force: true });
    await boss.stop({ graceful: false, wait: true, timeout: 5000 }).catch(() => undefined);
  }
}

/** Until every chunk's job has completed; fails timed-out chunks (dead workers) so they are retried. */
async function waitForChunks(
  boss: PgBoss,
  pending: Map<string, number>,
  n: number,
  o: QueueRunOptions,
  stop: AbortSignal,
): Promise<(ChunkDone & { chunk: number })[]> {
  const done: (ChunkDone & { chunk: number })[] = [];
  let lastExpire = 0;
  let rows = 0;
  o.progress?.({
    task: 'score',
    done: 0,
    total: n,
    unit: 'chunks',
    message: `${n} chunks queued; waiting for workers`,
  });
  while (pending.size) {
    if (stop.aborted)
      throw new CatintelError(
        'unavailable',
        `bulk scoring was interrupted; its ${pending.size} chunks not yet scored were cancelled and nothing was written`,
      );
    if (performance.now() - lastExpire >= 1000) {
      await boss.expire();
      lastExpire = performance.now();
    }
    for (const [id, chunk] of pending) {
      const job = await boss.getJobById<ChunkJob>(SCORE_QUEUE, id, { includeArchive: true });
      if (job?.state === 'completed') {
        const part = job.output as unknown as ChunkDone;
        done.push({ ...part, chunk });
        pending.delete(id);
        rows += part.summary.rows;
        o.progress?.({
          task: 'score',
          done: done.length,
          total: n,
          unit: 'chunks',
          message: `${done.length}/${n} chunks scored (${rows} rows; chunk ${chunk + 1} by ${part.worker})`,
        });
      } else if (!job || job.state === 'failed' || job.state === 'cancelled') {
        const out = (job?.output ?? {}) as { message?: string; value?: { message?: string } };
        const why = out.message ?? out.value?.message ?? `its job is ${job ? job.state : 'gone'}`;
        throw new CatintelError(
          'unavailable',
          `chunk ${chunk + 1} of ${n} failed on every try (${RETRY_LIMIT + 1}): ${why}; nothing was written`,
        );
      }
    }
    if (pending.size) await new Promise((r) => setTimeout(r, 200));
  }
  return done.sort((a, b) => a.chunk - b.chunk);
}
