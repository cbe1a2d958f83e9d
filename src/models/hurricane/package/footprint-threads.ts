/**
 * Storms footprinted on several threads (claimedFootprints): the threads take the next track from a
 * counter in shared memory as they become free, and the rows come back by track, so the footprints and
 * the reach do not depend on the number of threads or on which thread made which track. This thread takes
 * its share too, yielding between its tracks (a server runs a live storm's ensemble in the background and
 * its requests must not wait out the ensemble). Serves both a live storm's ensemble (its members share the
 * observed track's steps, which each thread footprints once) and a package's catalog (every storm alone,
 * streamed to the package in event order).
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
const WORKER = new URL('./footprint-worker.js', import.meta.url);

/** What a worker is sent first: the grid (its arrays copied). */
export type FootprintGridRequest = { land: Uint8Array; inlandKm: Float32Array };
/** Then: the tracks, the counter, whether to keep a reach, whether the tracks share their first steps and whether to make surge rows. */
export type FootprintTracksRequest = {
  tracks: readonly Track[];
  counter: SharedArrayBuffer;
  reach: boolean;
  shareSteps: boolean;
  surge: boolean;
};

/** A worker's messages: one per track it made, then its reach (when asked) as it ends. */
export type FootprintWorkerMessage = { track: number; footprint: StormFootprint } | { done: true; reach: Reach | null };

/** A claim on a shared counter: the next track's index. */
export function claimFrom(counter: SharedArrayBuffer): () => number {
  const cells = new Int32Array(counter);
  return () => Atomics.add(cells, 0, 1);
}

export interface FootprintsOptions {
  /** Raised to every track's reach. */
  reach?: Reach;
  /**
   * Other work for this thread, done (and awaited) once the workers have their tracks and before it takes
   * its own share: the workers take more meanwhile, so the cores stay busy.
   */
  first?: () => void | Promise<void>;
  /** Awaited after each track this thread makes. */
  between?: () => Promise<void>;
  /**
   * Whether the tracks share their first steps (an ensemble: true, the default): those are footprinted once
   * per thread. A catalog's storms share none: each track's steps are made when it is claimed.
   */
  shareSteps?: boolean;
  /** Whether to make the surge rows (true, the default); false: the wind rows alone. */
  surge?: boolean;
}

/**
 * The threads of one set of footprints, started before its tracks are known (a thread's start takes a
 * few hundred ms: it overlaps the land grid's and the tracks' making): `useGrid`, then `footprints` or
 * `inTrackOrder`; `close` in a finally (a failure before them would leave the workers waiting).
 */
export class FootprintThreads {
  private readonly workers: Worker[];

  /** Up to `threads` threads (by default every core up to MAX_THREADS; one for a few tracks or without a compiled worker). */
  constructor(tracks: number, threads?: number) {
    const n = threads ?? (tracks < THREADS_FROM_TRACKS ? 1 : Math.min(os.availableParallelism(), MAX_THREADS));
    this.workers = n > 1 && workerAvailable() ? Array.from({ length: n - 1 }, () => new Worker(WORKER)) : [];
  }

  /** Hands the grid to the workers, which make its tables while this thread makes the tracks. */
  useGrid(grid: LandGrid): void {
    const request: FootprintGridRequest = { land: grid.land, inlandKm: grid.inlandKm };
    for (const w of this.workers) w.postMessage(request);
  }

  /** stormFootprints of every track, in track order (inTrackOrder, gathered). */
  async footprints(tracks: readonly Track[], grid: LandGrid, o: FootprintsOptions = {}): Promise<StormFootprint[]> {
    const out: StormFootprint[] = [];
    for await (const fp of this.inTrackOrder(tracks, grid, o)) out.push(fp);
    return out;
  }

  /**
   * stormFootprints of every track, yielded in track order as soon as each and those before it are made
   * (a catalog's footprints are written as they come, not held: a 10,000-year catalog's are over a gigabyte).
   * Tracks are claimed in order, so only the tracks the threads are ahead of a slower one wait here.
   */
  async *inTrackOrder(tracks: readonly Track[], grid: LandGrid, o: FootprintsOptions = {}): AsyncGenerator<StormFootprint> {
    const counter = new SharedArrayBuffer(4);
    const made: (StormFootprint | undefined)[] = new Array(tracks.length);
    let wake: (() => void) | undefined;
    const arrived = (t: number, fp: StormFootprint) => {
      made[t] = fp;
      wake?.();
    };
    const shareSteps = o.shareSteps ?? true;
    const surge = o.surge ?? true;
    const done = this.workers.map((w) => collect(w, { tracks, counter, shareSteps, surge }, arrived, o.reach));
    let failure: { error: unknown } | undefined;
    // A worker that fails is reported when its track is next (not as an unhandled rejection before).
    for (const d of done)
      d.catch((error: unknown) => {
        failure ??= { error };
        wake?.();
      });
    await o.first?.();
    let next = 0;
    for (const [t, fp] of claimedFootprints(tracks, grid, claimFrom(counter), o.reach, { shareSteps, surge })) {
      made[t] = fp;
      for (; next < tracks.length && made[next]; next++) {
        yield made[next]!;
        made[next] = undefined;
      }
      await o.between?.();
    }
    while (next < tracks.length) {
      if (made[next]) {
        yield made[next]!;
        made[next++] = undefined;
        continue;
      }
      if (failure) throw failure.error;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    await Promise.all(done);
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
  request: Omit<FootprintTracksRequest, 'reach'>,
  arrived: (track: number, footprint: StormFootprint) => void,
  reach: Reach | undefined,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    worker.on('message', (m: FootprintWorkerMessage) => {
      if ('track' in m) {
        const { rows } = m.footprint;
        arrived(m.track, { ...m.footprint, rows: Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength) });
        return;
      }
      if (reach && m.reach) raise(reach, m.reach);
      resolve();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`footprint worker exited (code ${code}) before its last track`)));
    worker.postMessage({ ...request, reach: reach !== undefined } satisfies FootprintTracksRequest);
  });
}

/** `into` raised to `from`, cell by cell: a reach is a maximum, so the threads' merge in any order. */
function raise(into: Reach, from: Reach): void {
  for (let k = 0; k < into.wind.length; k++) if (from.wind[k] > into.wind[k]) into.wind[k] = from.wind[k];
  for (let k = 0; k < into.surge.length; k++) if (from.surge[k] > into.surge[k]) into.surge[k] = from.surge[k];
}
