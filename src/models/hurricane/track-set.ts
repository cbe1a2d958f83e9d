/**
 * The event set's inputs read from disk: the HURDAT2 Atlantic best tracks under the shared data's
 * hazard_history/hurricanes, and the US state land mask.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileMemo } from '../../lib/file-memo.js';
import { parseHurdat2, type Storm } from '../../reference-data/hurdat2.js';
import { buildTrackSet, type TrackSet, type TrackSetInputs } from './domain/track-set/build.js';
import { buildLandMask, type LandMask } from './domain/track-set/land-mask.js';
import { usStateShapes } from './us-states.js';

export const HURDAT2_ATLANTIC = 'hazard_history/hurricanes/hurdat2-1851-2024-040425_reassembled.txt';

/**
 * HURDAT2 parsed, kept while the file is unchanged (lib/file-memo.ts): a model build, a basis-risk history
 * and the landfall check each read it, about a second of CPU; a process that builds again (the server, the
 * tests) parses it once. Its readers do not change it.
 */
const parsedRecord = fileMemo<Storm[]>(1);
/** The contiguous states' land mask, from the installed us-atlas: made once a process (a third of a second). */
let stateMask: LandMask | undefined;

export function readTrackSetInputs(dataDir: string): TrackSetInputs {
  const file = path.join(dataDir, HURDAT2_ATLANTIC);
  if (!fs.existsSync(file)) throw new Error(`HURDAT2 Atlantic best tracks not found at ${file}; pass the shared data directory (the one holding hazard_history/)`);
  const storms = parsedRecord([file], () => parseHurdat2(fs.readFileSync(file, 'utf8')));
  return { storms, mask: (stateMask ??= buildLandMask(usStateShapes())) };
}

/** The stochastic Atlantic/Gulf catalog for `years` simulated years from `seed`, read from the data under dataDir. */
export function buildHurricaneTrackSet(options: { dataDir: string; years: number; seed: number }): TrackSet {
  return buildTrackSet(readTrackSetInputs(options.dataDir), options);
}
