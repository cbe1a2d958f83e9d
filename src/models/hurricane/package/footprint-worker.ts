/**
 * A footprint thread (footprint-threads.ts): makes the grid's tables when the grid arrives, then
 * footprints the tracks it claims from the shared counter, handing each one's rows back (their buffer
 * moved, not copied), then its reach. It ends once done: nothing more listens.
 */
import { parentPort } from 'node:worker_threads';
import { GRID_CELLS, type LandGrid } from '../domain/footprint/grid.js';
import {
  claimFrom,
  type FootprintGridRequest,
  type FootprintTracksRequest,
  type FootprintWorkerMessage,
} from './footprint-threads.js';
import { claimedFootprints, prepareFootprintTables, type Reach } from './storm-footprint.js';

const port = parentPort!;
port.once('message', (g: FootprintGridRequest) => {
  const grid: LandGrid = { land: g.land, inlandKm: g.inlandKm };
  prepareFootprintTables(grid);
  port.once('message', (r: FootprintTracksRequest) => run(grid, r));
});

function run(grid: LandGrid, { tracks, counter, reach: keepReach, shareSteps, surge }: FootprintTracksRequest): void {
  const reach: Reach | undefined = keepReach
    ? { wind: new Uint8Array(GRID_CELLS), surge: new Uint8Array(GRID_CELLS) }
    : undefined;
  for (const [track, footprint] of claimedFootprints(tracks, grid, claimFrom(counter), reach, { shareSteps, surge })) {
    const message: FootprintWorkerMessage = { track, footprint };
    const { rows } = footprint;
    const own = rows.byteOffset === 0 && rows.byteLength === rows.buffer.byteLength;
    port.postMessage(message, own ? [rows.buffer as ArrayBuffer] : []);
  }
  const done: FootprintWorkerMessage = { done: true, reach: reach ?? null };
  port.postMessage(done);
}
