/**
 * A loss-kernel thread (kernel.ts runKernelParallel): runs the kernel on its share of the events and
 * hands the summary records back (their buffers moved, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { runKernel, type KernelInput } from './kernel.js';

const input = workerData as KernelInput;
const out = runKernel(input);
const buffers = [out.gul, out.il].flatMap((r) => [r.eventId, r.summaryId, r.mean, r.max, r.exposure, r.affected, r.sampled].map((a) => a.buffer as ArrayBuffer));
parentPort!.postMessage(out, buffers);
