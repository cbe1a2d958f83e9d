/**
 * An ensemble-footprint thread (ensemble-footprints.ts): makes the grid's tables when the grid arrives,
 * then footprints the tracks it claims from the shared counter, handing each one's rows back (their
 * buffer moved, not copied), then its reach. It ends once done: nothing more listens.
 */
import { parentPort } from 'node:worker_threads';
import { GRID_CELLS, type LandGrid } from '../domain/footprint/grid.js';
import {
  claimFrom,
  type EnsembleGridRequest,
  type EnsembleTracksRequest,
  type EnsembleWorkerMessage,
} from './ensemble-footprints.js';
import { claimedFootprints, prepareFootprintTables, type Reach } from './storm-footprint.js';

const port = parentPort!;
port.once('message', (g: EnsembleGridRequest) => {
  const grid: LandGrid = { land: g.land, inlandKm: g.inlandKm };
  prepareFootprintTables(grid);
  port.once('message', (r: EnsembleTracksRequest) => run(grid, r));
});

function run(grid: LandGrid, { tracks, counter, reach: keepReach }: EnsembleTracksRequest): void {
  const reach: Reach | undefined = keepReach
    ? { wind: new Uint8Array(GRID_CELLS), surge: new Uint8Array(GRID_CELLS) }
    : undefined;
  for (const [track, footprint] of claimedFootprints(tracks, grid, claimFrom(counter), reach)) {
    const message: EnsembleWorkerMessage = { track, footprint };
    const { rows } = footprint;
    const own = rows.byteOffset === 0 && rows.byteLength === rows.buffer.byteLength;
    port.postMessage(message, own ? [rows.buffer as ArrayBuffer] : []);
  }
  const done: EnsembleWorkerMessage = { done: true, reach: reach ?? null };
  port.postMessage(done);
}
