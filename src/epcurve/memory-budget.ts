/**
 * How much memory a book's loss run may hold (`--max-memory`), and how many locations a chunk of it then
 * takes. The run's peak grows with its locations (reading them, their keys, the Oasis input files and the
 * kernel's per-item arrays) above a base that does not (the process, the model package's damage side
 * and footprint index, the kernel threads): measured peak RSS, fitted as base + locations x bytes per
 * location (docs/big-books.md, "Losses in bounded memory"), with a margin.
 */
import os from 'node:os';
import { invalidParameter } from '../errors.js';
import { kernelThreadsAtMost } from '../loss/thread-count.js';

const UNITS: Record<string, number> = {
  B: 1,
  KB: 1e3,
  MB: 1e6,
  GB: 1e9,
  TB: 1e12,
  KIB: 2 ** 10,
  MIB: 2 ** 20,
  GIB: 2 ** 30,
  TIB: 2 ** 40,
};

/**
 * Measured on Florida-heavy stored books through the 100-year hurricane package, two kernel threads
 * (docs/big-books.md, "The loss path's memory"): in one pass (25,000 to 800,000 locations, 0 and 10
 * samples, 10 and 100 years) 322 MB plus 3,380 bytes a location, every run below 557 MB plus that; in
 * chunks of a 2,000,000-location book (125,000 and 500,000 a chunk) about 590 MB plus 5,700 bytes a
 * location of a chunk, the memory of the chunks before not all handed back. Each kernel thread past the
 * first adds about 40 MB and 600 bytes a location (the run's input is copied to it). The figures here sit
 * above all of those.
 */
/** The peak of a run beside its locations, at `threads` kernel threads. */
export function baseBytes(threads = kernelThreadsAtMost()): number {
  return 600e6 + 40e6 * Math.max(0, threads - 2);
}
/** Per location at `samples` damage samples and `threads` kernel threads (the kernel holds each item's samples: about three items a location). */
export function bytesPerLocation(samples: number, threads = kernelThreadsAtMost()): number {
  return 6_200 + 600 * Math.max(0, threads - 2) + 30 * samples;
}
/** Fewer locations a chunk than this and the per-chunk costs (every event of the package each time) would dominate. */
export const MIN_CHUNK_LOCATIONS = 1_000;

/** The default budget: half of this machine's memory. */
export function defaultMaxMemory(): number {
  return Math.floor(os.totalmem() / 2);
}

/** A size as `4GB`, `512MB`, `1.5GiB` or a number of bytes; refused in one line naming it otherwise. */
export function parseMaxMemory(raw: string, name = 'max_memory'): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(raw);
  const unit = m ? UNITS[(m[2] || 'B').toUpperCase()] : undefined;
  if (!m || unit === undefined)
    throw invalidParameter(name, `"${raw}" is not a size: give a number with a unit, e.g. 4GB, 512MB or 1.5GiB`);
  return Math.floor(Number(m[1]) * unit);
}

/**
 * Locations per chunk under `budget` bytes at `samples` samples: Infinity-free, at least
 * MIN_CHUNK_LOCATIONS; a budget below what such a chunk needs is refused, naming the least it needs.
 */
export function chunkLocations(budget: number, samples: number, name = 'max_memory'): number {
  const least = baseBytes() + MIN_CHUNK_LOCATIONS * bytesPerLocation(samples);
  if (budget < least)
    throw invalidParameter(
      name,
      `${formatBytes(budget)} is below what a loss run needs (${formatBytes(least)} at ${samples} samples: the model package's side and a chunk of ${MIN_CHUNK_LOCATIONS.toLocaleString('en-US')} locations); give --max-memory ${Math.ceil(least / 1e8) / 10}GB or more`,
    );
  return Math.floor((budget - baseBytes()) / bytesPerLocation(samples));
}

export function formatBytes(n: number): string {
  return n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : `${Math.round(n / 1e6)} MB`;
}
