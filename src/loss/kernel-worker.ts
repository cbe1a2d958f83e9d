/**
 * A loss-kernel thread (kernel-threads.ts runKernelParallel): runs the kernel on the blocks of events it
 * takes from the shared counter and hands the summary records back (their buffers moved, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { Blocks } from './kernel-threads.js';
import { recordLists, runKernel, type KernelInput } from './kernel.js';

const { input, blocks, thread, block } = workerData as {
  input: KernelInput;
  blocks: SharedArrayBuffer;
  thread: number;
  block: number;
};
const out = runKernel(input, new Blocks(input.events.length, block, blocks).claimer(thread), block);
const buffers = recordLists(out).flatMap((r) =>
  [r.eventId, r.summaryId, r.mean, r.max, r.exposure, r.affected, r.sampled].map((a) => a.buffer as ArrayBuffer),
);
parentPort!.postMessage(out, buffers);
