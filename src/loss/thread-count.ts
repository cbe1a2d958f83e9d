/**
 * The most threads a loss kernel run takes: CATINTEL_OASIS_THREADS when set to a whole number of 1 or
 * more, else every core up to 8 (kernel-threads.ts takes fewer for a small run). Its own module, light to
 * load: the memory budget of a book's run reads it before any kernel code is needed.
 */
import os from 'node:os';

/** Cores past this many add little to the kernel (its blocks of events contend for memory). */
const MAX_KERNEL_THREADS = 8;

/** CATINTEL_OASIS_THREADS as a count of threads, or undefined when unset or not one. */
export function threadsFromEnv(): number | undefined {
  const env = Number(process.env.CATINTEL_OASIS_THREADS);
  return Number.isInteger(env) && env > 0 ? env : undefined;
}

export function kernelThreadsAtMost(): number {
  return threadsFromEnv() ?? Math.max(1, Math.min(os.availableParallelism(), MAX_KERNEL_THREADS));
}
