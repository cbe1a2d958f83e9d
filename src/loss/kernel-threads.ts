/**
 * A large run shared between threads (runKernelParallel): the threads take blocks of events as they
 * become free (a counter in shared memory), each computes its events exactly as a single thread would
 * (every draw is seeded by its group and event), and the records are merged back in event order by
 * the block each event was in, so the output does not depend on the number of threads or on which
 * thread ran which block.
 */
import type { SummaryRecords } from './domain/elt.js';
import { KernelPool, workerAvailable } from './kernel-pool.js';
import { kernelThreadsAtMost, threadsFromEnv } from './thread-count.js';
import { kernelRecords, kernelWork, recordLists, runKernel, type KernelInput, type KernelOutput } from './kernel.js';

/**
 * Events per block: small, so that the threads finish together however dense or sparse the stretches of
 * the event set; one when each thread would get fewer than 16 blocks of four (a live event's 51 footprints:
 * a block of four is a twelfth of a thread's share, and the last one leaves the other thread idle).
 */
export function blockFor(events: number, threads: number): number {
  return events < threads * 16 * 4 ? 1 : 4;
}
/** Item-events (items reached summed over events, times samples) below which one thread does it all. */
const PARALLEL_FROM = 2_000_000;

/**
 * How many threads a run uses: `requested` (or CATINTEL_OASIS_THREADS) when given, else one below
 * PARALLEL_FROM item-events and otherwise every core, up to 8.
 */
export function threadsFor(k: KernelInput, requested?: number): number {
  return threadsOf(k.events.length, () => kernelWork(k), requested);
}

/**
 * threadsFor of a run whose input is not made yet, from at most `work` item-events (the threads a pool
 * started early for it needs: when the run turns out smaller, it takes fewer of them).
 */
export function threadsForAtMost(events: number, work: number): number {
  return threadsOf(events, () => work);
}

function threadsOf(events: number, work: () => number, requested?: number): number {
  const want = requested ?? threadsFromEnv();
  if (want !== undefined) return Math.max(1, Math.min(want, events));
  if (!workerAvailable() || work() < PARALLEL_FROM) return 1;
  return Math.max(1, Math.min(kernelThreadsAtMost(), events));
}

/**
 * The blocks of a run in shared memory: [0] the next block to hand out, then per block the thread that
 * took it. `claimer(thread)` is the thread's nextBlock for runKernel.
 */
export class Blocks {
  readonly buffer: SharedArrayBuffer;
  readonly count: number;
  private readonly cells: Int32Array;

  constructor(events: number, block: number, buffer?: SharedArrayBuffer) {
    this.count = Math.ceil(events / block);
    this.buffer = buffer ?? new SharedArrayBuffer(4 * (1 + this.count));
    this.cells = new Int32Array(this.buffer);
  }

  claimer(thread: number): () => number {
    return () => {
      const b = Atomics.add(this.cells, 0, 1);
      if (b < this.count) this.cells[1 + b] = thread;
      return b;
    };
  }

  /** The thread that ran block b (read once every thread is done). */
  owner(b: number): number {
    return this.cells[1 + b];
  }
}

/**
 * runKernel over `threads` threads (this one and threads - 1 of the pool's, or of a pool started here for
 * the run); the same records in the same order.
 */
export async function runKernelParallel(k: KernelInput, threads: number, pool?: KernelPool): Promise<KernelOutput> {
  if (threads <= 1) return runKernel(k);
  if (!workerAvailable()) return runShares(k, threads);
  const on = pool ?? new KernelPool(threads - 1);
  try {
    return await onPool(k, Math.min(threads, 1 + on.size), on);
  } finally {
    if (on !== pool) on.close();
  }
}

async function onPool(k: KernelInput, threads: number, pool: KernelPool): Promise<KernelOutput> {
  if (threads <= 1) return runKernel(k);
  const block = blockFor(k.events.length, threads);
  const blocks = new Blocks(k.events.length, block);
  const workers = Array.from({ length: threads - 1 }, (_, w) =>
    pool.run(w, { input: k, blocks: blocks.buffer, thread: w + 1, block }),
  );
  // A worker that fails is reported once this thread's share is done (not as an unhandled rejection before).
  for (const w of workers) w.catch(() => undefined);
  // This thread runs blocks meanwhile (the first ones, while the workers take the input); its progress reports the blocks handed out to all.
  const claim = blocks.claimer(0);
  const progress = k.progress;
  const first = runKernel(
    { ...k, progress: undefined },
    () => {
      const b = claim();
      if (progress && b % 256 === 0) progress(Math.min(b * block, k.events.length), k.events.length, 'events');
      return b;
    },
    block,
  );
  const outs = [first, ...(await Promise.all(workers))];
  progress?.(k.events.length, k.events.length, 'events');
  return mergeBlocks(k, outs, (e) => blocks.owner(Math.floor(e / block)));
}

/**
 * The blocks of `threads` threads computed one after another in this thread, dealt in turn, and merged
 * as runKernelParallel merges them (the tests' way of running the sharing without compiled workers).
 */
export function runShares(k: KernelInput, threads: number): KernelOutput {
  const block = blockFor(k.events.length, threads);
  const count = Math.ceil(k.events.length / block);
  const outs = Array.from({ length: threads }, (_, w) => {
    let b = w - threads;
    return runKernel({ ...k, progress: undefined }, () => Math.min((b += threads), count), block);
  });
  return mergeBlocks(k, outs, (e) => Math.floor(e / block) % threads);
}

/** The threads' records in event order: a thread holds at most one record per event, its blocks in the order it ran them (ascending). `owner(e)`: the thread that ran event e's block. */
function mergeBlocks(k: KernelInput, outs: KernelOutput[], owner: (event: number) => number): KernelOutput {
  const events = k.events;
  const merged = kernelRecords(k, events.length);
  const into = recordLists(merged);
  const from = outs.map(recordLists);
  const next = outs.map(() => into.map(() => 0));
  for (let e = 0; e < events.length; e++) {
    const w = owner(e);
    for (let p = 0; p < into.length; p++) {
      const o = from[w][p];
      if (next[w][p] < o.length && o.eventId[next[w][p]] === events[e]) copyRecord(o, next[w][p]++, into[p]);
    }
  }
  return merged;
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
