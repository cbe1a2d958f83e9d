/**
 * A live storm's ensemble footprinted on several threads (claimedFootprints): the threads take the next
 * track from a counter in shared memory as they become free, each footprints the shared steps itself, and
 * the rows come back by track, so the footprints and the reach do not depend on the number of threads or
 * on which thread made which track. This thread takes its share too, yielding between its tracks (a
 * server runs this in the background and its requests must not wait out the ensemble).
 */
import fs from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LandGrid } from '../domain/footprint/grid.js';
import type { Track } from '../domain/track.js';
import { claimedFootprints, type Reach, type StormFootprint } from './storm-footprint.js';

/** Below this many tracks a thread's start (its modules, its grid's tables, the shared steps) costs more than it saves. */
const THREADS_FROM_TRACKS = 8;
const MAX_THREADS = 4;
const WORKER = new URL('./ensemble-footprint-worker.js', import.meta.url);

/** What a worker is sent first: the grid (its arrays copied). */
export type EnsembleGridRequest = { land: Uint8Array; inlandKm: Float32Array };
/** Then: the tracks, the counter and whether to keep a reach. */
export type EnsembleTracksRequest = { tracks: readonly Track[]; counter: SharedArrayBuffer; reach: boolean };

/** A worker's messages: one per track it made, then its reach (when asked) as it ends. */
export type EnsembleWorkerMessage = { track: number; footprint: StormFootprint } | { done: true; reach: Reach | null };

/** A claim on a shared counter: the next track's index. */
export function claimFrom(counter: SharedArrayBuffer): () => number {
  const cells = new Int32Array(counter);
  return () => Atomics.add(cells, 0, 1);
}

/**
 * The threads of one ensemble's footprints, started before its tracks are known (a thread's start takes a
 * few hundred ms: it overlaps the land grid's and the ensemble's making): `useGrid`, then `footprints`;
 * `close` in a finally (a failure before `footprints` would leave the workers waiting).
 */
export class EnsembleThreads {
  private readonly workers: Worker[];

  /** Up to `threads` threads (by default every core up to MAX_THREADS; one for a small ensemble or without a compiled worker). */
  constructor(tracks: number, threads?: number) {
    const n = threads ?? (tracks < THREADS_FROM_TRACKS ? 1 : Math.min(os.availableParallelism(), MAX_THREADS));
    this.workers = n > 1 && workerAvailable() ? Array.from({ length: n - 1 }, () => new Worker(WORKER)) : [];
  }

  /** Hands the grid to the workers, which make its tables while this thread makes the tracks. */
  useGrid(grid: LandGrid): void {
    const request: EnsembleGridRequest = { land: grid.land, inlandKm: grid.inlandKm };
    for (const w of this.workers) w.postMessage(request);
  }

  /**
   * stormFootprints of every track, in track order. `first`: other work for this thread, done once the
   * workers have their tracks and before it takes its own share (the workers take more meanwhile);
   * `between` is awaited after each track this thread makes.
   */
  async footprints(
    tracks: readonly Track[],
    grid: LandGrid,
    o: { reach?: Reach; first?: () => void; between?: () => Promise<void> } = {},
  ): Promise<StormFootprint[]> {
    const counter = new SharedArrayBuffer(4);
    const out: StormFootprint[] = new Array(tracks.length);
    const done = this.workers.map((w) => collect(w, tracks, counter, out, o.reach));
    // A worker that fails is reported once this thread's share is done (not as an unhandled rejection before).
    for (const d of done) d.catch(() => undefined);
    o.first?.();
    for (const [t, fp] of claimedFootprints(tracks, grid, claimFrom(counter), o.reach)) {
      out[t] = fp;
      await o.between?.();
    }
    await Promise.all(done);
    return out;
  }

  close(): void {
    for (const w of this.workers) void w.terminate();
  }
}

/** Threads need the compiled worker beside this file; run from the TypeScript sources there is none. */
function workerAvailable(): boolean {
  return fs.existsSync(fileURLToPath(WORKER));
}

function collect(
  worker: Worker,
  tracks: readonly Track[],
  counter: SharedArrayBuffer,
  out: StormFootprint[],
  reach: Reach | undefined,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    worker.on('message', (m: EnsembleWorkerMessage) => {
      if ('track' in m) {
        const { rows } = m.footprint;
        out[m.track] = { ...m.footprint, rows: Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength) };
        return;
      }
      if (reach && m.reach) raise(reach, m.reach);
      resolve();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`ensemble footprint worker exited (code ${code}) before its last track`)));
    const request: EnsembleTracksRequest = { tracks, counter, reach: reach !== undefined };
    worker.postMessage(request);
  });
}

/** `into` raised to `from`, cell by cell: a reach is a maximum, so the threads' merge in any order. */
function raise(into: Reach, from: Reach): void {
  for (let k = 0; k < into.wind.length; k++) if (from.wind[k] > into.wind[k]) into.wind[k] = from.wind[k];
  for (let k = 0; k < into.surge.length; k++) if (from.surge[k] > into.surge[k]) into.surge[k] = from.surge[k];
}
