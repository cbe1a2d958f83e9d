/**
 * The earthquake keys lookup on an OED location file, numbered as Oasis numbers locations (so the keys
 * join the input files `oasis files` makes from the same file). The same shape as the hurricane
 * package's: bookKeys(modelDir, locationFile), with writeBookKeys and missingVulnerabilities shared.
 */
import { CatintelError } from '../../../errors.js';
import { bookRows } from '../../hurricane/package/book-keys.js';
import type { KeyError, KeyRow } from '../../hurricane/package/keys.js';
import { earthquakeKeys, KEYS_FIELDS, readCellZones } from './keys.js';
import { SEISMIC_ZONES } from '../domain/vulnerability/design-level.js';
import { GRID_CELLS } from './grid.js';

export { missingVulnerabilities, writeBookKeys } from '../../hurricane/package/book-keys.js';

export function bookKeys(modelDir: string, locationFile: string): { keys: KeyRow[]; errors: KeyError[] } {
  let zones: Uint8Array;
  try {
    zones = readCellZones(modelDir);
  } catch (e) {
    throw new CatintelError('invalid_parameter', `--model: ${(e as Error).message}`);
  }
  return earthquakeKeys(earthquakeBookRows(locationFile), zones);
}

export function earthquakeBookRows(locationFile: string): { locId: number; row: Record<string, string> }[] {
  return bookRows(locationFile, KEYS_FIELDS, 'earthquake');
}

/**
 * Every vulnerability_id a book's locations can key to, in whichever seismic zone their cells turn out to
 * be (the zones are known only once the catalog is built): what `model build --oed-location` adds.
 */
export function bookVulnerabilityIds(locationFile: string): number[] {
  const rows = earthquakeBookRows(locationFile);
  const ids = new Set<number>();
  for (let z = 1; z <= SEISMIC_ZONES.length; z++) {
    for (const k of earthquakeKeys(rows, new Uint8Array(GRID_CELLS).fill(z)).keys) ids.add(k.vulnerabilityId);
  }
  return [...ids];
}
