/**
 * A large run shared between threads (runKernelParallel): events go to threads in small blocks, each
 * thread computes its events exactly as a single thread would (every draw is seeded by its group and
 * event), and the records are merged back in event order, so the output does not depend on the number
 * of threads.
 */
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SummaryRecords } from './domain/elt.js';
import { FILL_TABLES_FROM } from './domain/sample.js';
import { fillNormTables, normTables } from './domain/normal.js';
import { kernelWork, records, runKernel, type KernelInput, type KernelOutput } from './kernel.js';

/** Events per block handed to a thread: small, so that dense and sparse stretches of the event set are shared evenly. */
const BLOCK = 4;
/** Item-events (items reached summed over events, times samples) below which one thread does it all. */
const PARALLEL_FROM = 2_000_000;
const WORKER = new URL('./kernel-worker.js', import.meta.url);

/**
 * How many threads a run uses: `requested` (or CATINTEL_OASIS_THREADS) when given, else one below
 * PARALLEL_FROM item-events and otherwise every core, up to 8.
 */
export function threadsFor(k: KernelInput, requested?: number): number {
  const env = Number(process.env.CATINTEL_OASIS_THREADS);
  const want = requested ?? (Number.isInteger(env) && env > 0 ? env : undefined);
  if (want !== undefined) return Math.max(1, Math.min(want, k.events.length));
  if (!workerAvailable() || kernelWork(k) < PARALLEL_FROM) return 1;
  return Math.max(1, Math.min(os.availableParallelism(), 8, k.events.length));
}

/** Threads need the compiled worker (kernel-worker.js beside this file); run from the TypeScript sources there is none. */
function workerAvailable(): boolean {
  return fs.existsSync(fileURLToPath(WORKER));
}

/** The events of share w out of `shares`: blocks of BLOCK events dealt in turn. */
function shareOf(events: Int32Array, w: number, shares: number): Int32Array {
  const out: number[] = [];
  for (let e = 0; e < events.length; e++) if (Math.floor(e / BLOCK) % shares === w) out.push(events[e]);
  return Int32Array.from(out);
}

/** runKernel over `threads` threads (this one and threads - 1 workers); the same records in the same order. */
export async function runKernelParallel(k: KernelInput, threads: number): Promise<KernelOutput> {
  if (threads <= 1) return runKernel(k);
  if (!workerAvailable()) return runShares(k, threads);
  const shares = Array.from({ length: threads }, (_, w) => shareOf(k.events, w, threads));
  // The normal cdf table, when the run computes it whole, is computed once here and shared with the workers.
  if (k.sample?.correlations && kernelWork(k) >= FILL_TABLES_FROM) fillNormTables();
  const tables = normTables();
  const workers = shares.slice(1).map(
    (events) =>
      new Promise<KernelOutput>((resolve, reject) => {
        const worker = new Worker(WORKER, { workerData: { input: { events, gul: k.gul, sample: k.sample, plan: k.plan }, tables } });
        worker.once('message', (out: KernelOutput) => resolve(out));
        worker.once('error', reject);
        worker.once('exit', (code) => {
          if (code !== 0) reject(new Error(`loss kernel worker exited with code ${code}`));
        });
      }),
  );
  // This thread runs the first share meanwhile; its progress stands for all of them.
  const progress = k.progress && ((done: number, total: number, message: string) => k.progress!(Math.min(done * threads, k.events.length), k.events.length, message));
  const first = runKernel({ ...k, events: shares[0], progress });
  const outs = [first, ...(await Promise.all(workers))];
  return mergeShares(k.events, outs, threads, k.sample?.samples ?? 0);
}

/** The shares of `threads` threads computed one after another in this thread, merged as runKernelParallel merges them. */
export function runShares(k: KernelInput, threads: number): KernelOutput {
  const outs = Array.from({ length: threads }, (_, w) => runKernel({ ...k, events: shareOf(k.events, w, threads), progress: undefined }));
  return mergeShares(k.events, outs, threads, k.sample?.samples ?? 0);
}

/** The shares' records in event order: each share holds at most one record per event, in its event order. */
function mergeShares(events: Int32Array, outs: KernelOutput[], threads: number, S: number): KernelOutput {
  const gul = records(events.length, S);
  const il = records(events.length, S);
  const next = outs.map(() => ({ gul: 0, il: 0 }));
  for (let e = 0; e < events.length; e++) {
    const w = Math.floor(e / BLOCK) % threads;
    const o = outs[w];
    if (next[w].gul < o.gul.length && o.gul.eventId[next[w].gul] === events[e]) copyRecord(o.gul, next[w].gul++, gul);
    if (next[w].il < o.il.length && o.il.eventId[next[w].il] === events[e]) copyRecord(o.il, next[w].il++, il);
  }
  return { gul, il };
}

function copyRecord(from: SummaryRecords, i: number, to: SummaryRecords): void {
  const j = to.length++;
  to.eventId[j] = from.eventId[i];
  to.summaryId[j] = from.summaryId[i];
  to.mean[j] = from.mean[i];
  to.max[j] = from.max[i];
  to.exposure[j] = from.exposure[i];
  to.affected[j] = from.affected[i];
  const S = to.samples;
  to.sampled.set(from.sampled.subarray(i * S, (i + 1) * S), j * S);
}
