/**
 * The event set's inputs read from disk: the HURDAT2 Atlantic best tracks under the shared data's
 * hazard_history/hurricanes, and the US state land mask.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseHurdat2 } from '../../reference-data/hurdat2.js';
import { buildTrackSet, type TrackSet, type TrackSetInputs } from './domain/track-set/build.js';
import { buildLandMask } from './domain/track-set/land-mask.js';
import { usStateShapes } from './us-states.js';

export const HURDAT2_ATLANTIC = 'hazard_history/hurricanes/hurdat2-1851-2024-040425_reassembled.txt';

export function readTrackSetInputs(dataDir: string): TrackSetInputs {
  const file = path.join(dataDir, HURDAT2_ATLANTIC);
  if (!fs.existsSync(file)) throw new Error(`HURDAT2 Atlantic best tracks not found at ${file}; pass the shared data directory (the one holding hazard_history/)`);
  return { storms: parseHurdat2(fs.readFileSync(file, 'utf8')), mask: buildLandMask(usStateShapes()) };
}

/** The stochastic Atlantic/Gulf catalog for `years` simulated years from `seed`, read from the data under dataDir. */
export function buildHurricaneTrackSet(options: { dataDir: string; years: number; seed: number }): TrackSet {
  return buildTrackSet(readTrackSetInputs(options.dataDir), options);
}
