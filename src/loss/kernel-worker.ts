/**
 * A loss-kernel thread (kernel.ts runKernelParallel): runs the kernel on its share of the events and
 * hands the summary records back (their buffers moved, not copied). gulmc's normal cdf table, when the
 * run computes them whole, come from the main thread in shared memory.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { useNormTables, type normTables } from './domain/normal.js';
import { runKernel, type KernelInput } from './kernel.js';

const { input, tables } = workerData as { input: KernelInput; tables?: ReturnType<typeof normTables> };
if (tables) useNormTables(tables);
const out = runKernel(input);
const buffers = [out.gul, out.il].flatMap((r) => [r.eventId, r.summaryId, r.mean, r.max, r.exposure, r.affected, r.sampled].map((a) => a.buffer as ArrayBuffer));
parentPort!.postMessage(out, buffers);
