/**
 * The keys lookup on an OED location file: reads the fields the hurricane model uses and numbers the
 * locations as Oasis does (LocID by PortNumber, AccNumber, LocNumber), so the keys join the Oasis
 * input files `oasis files` makes from the same file.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../../../errors.js';
import { fileMemo } from '../../../lib/file-memo.js';
import { locationIds } from '../../../oasis-files/domain/location-ids.js';
import { readCsvColumns } from '../../../oasis-files/read-csv-columns.js';
import { hurricaneKeys, keysCsv, keysErrorsCsv, readPackageReach, type KeyError, type KeyRow, type PackageReach } from './keys.js';

const FIELDS = ['PortNumber', 'AccNumber', 'LocNumber', 'LocPerilsCovered', 'Latitude', 'Longitude', 'OccupancyCode', 'ConstructionCode', 'NumberOfStoreys', 'YearBuilt', 'RoofGeometry', 'WindowProtection', 'RoofAnchorage', 'TerrainRoughness', 'GroundElevation', 'GroundElevationUnit', 'FirstFloorHeight', 'FirstFloorHeightUnit'];

export function bookKeys(modelDir: string, locationFile: string): { keys: KeyRow[]; errors: KeyError[] } {
  let reach: PackageReach;
  try {
    reach = readPackageReach(modelDir);
  } catch (e) {
    throw new CatintelError('invalid_parameter', `--model: ${(e as Error).message}`);
  }
  return hurricaneKeys(bookRows(locationFile), reach);
}

/** The location rows with the fields a model reads (the hurricane's unless given), numbered as Oasis numbers them. */
export function bookRows(locationFile: string, fields: readonly string[] = FIELDS, model = 'hurricane'): { locId: number; row: Record<string, string> }[] {
  const t = readCsvColumns(locationFile, [...fields], '--oed-location');
  for (const f of ['PortNumber', 'AccNumber', 'LocNumber', 'Latitude', 'Longitude']) {
    if (!t.cols.has(f)) throw new CatintelError('invalid_parameter', `the location file has no ${f} column; the ${model} keys lookup needs PortNumber, AccNumber, LocNumber, Latitude and Longitude`);
  }
  const col = (f: string) => t.cols.get(f) ?? [];
  const locId = locationIds(col('PortNumber'), col('AccNumber'), col('LocNumber'));
  const present = fields.filter((f) => t.cols.has(f)).map((f) => [f, col(f)] as const);
  const out: { locId: number; row: Record<string, string> }[] = new Array(t.rows);
  for (let i = 0; i < t.rows; i++) {
    const row: Record<string, string> = {};
    for (const [f, cells] of present) row[f] = cells[i];
    out[i] = { locId: locId[i], row };
  }
  return out;
}

/** keys.csv and keys-errors.csv beside each other (keys-errors.csv written also when empty, as Oasis does). */
export function writeBookKeys(out: string, keys: KeyRow[], errors: KeyError[]): { keys: string; errors: string } {
  fs.mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
  const errorsFile = path.join(path.dirname(path.resolve(out)), `${path.basename(out, '.csv')}-errors.csv`);
  fs.writeFileSync(out, keysCsv(keys));
  fs.writeFileSync(errorsFile, keysErrorsCsv(errors));
  return { keys: path.resolve(out), errors: errorsFile };
}

/**
 * The vulnerability_ids a vulnerability.csv holds, kept while the file is unchanged (lib/file-memo.ts): an
 * EP curve asks before every run, and scanning the package's file (34 MB for the 100-year hurricane
 * package) took half a second of CPU each time.
 */
const heldIds = fileMemo<ReadonlySet<number>>(4);
const COMMA = 0x2c;
const NEWLINE = 0x0a;

function vulnerabilityIds(file: string): ReadonlySet<number> {
  return heldIds([file], () => {
    const held = new Set<number>();
    // The bytes, not their text: a package's ids are ASCII, and decoding the whole file as UTF-8 cost more
    // than the scan. A line whose id is the last one's (the file runs by id) makes no string.
    const bytes = fs.readFileSync(file);
    let last = -1;
    let lastLength = 0;
    for (let i = bytes.indexOf(NEWLINE) + 1; i > 0 && i < bytes.length; ) {
      const comma = bytes.indexOf(COMMA, i);
      if (comma < 0) break;
      let same = comma - i === lastLength;
      for (let k = 0; same && k < lastLength; k++) same = bytes[i + k] === bytes[last + k];
      if (!same) {
        held.add(Number(bytes.toString('latin1', i, comma)));
        last = i;
        lastLength = comma - i;
      }
      i = bytes.indexOf(NEWLINE, comma) + 1;
    }
    return held;
  });
}

/** vulnerability_ids the keys use that the package's vulnerability.csv does not hold. */
export function missingVulnerabilities(modelDir: string, keys: KeyRow[]): number[] {
  const held = vulnerabilityIds(path.join(modelDir, 'vulnerability.csv'));
  return [...new Set(keys.map((k) => k.vulnerabilityId))].filter((id) => !held.has(id)).sort((a, b) => a - b);
}
