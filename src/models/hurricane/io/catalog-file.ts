/**
 * The hazard curve's stochastic catalog (site-hazard-curve.ts) kept in catintel's cache folder between
 * processes: building it takes about two seconds of CPU (HURDAT2 read, a random walk per track), which every
 * `catintel hazard curve --peril hurricane_wind` paid; reading it back takes a few tens of milliseconds.
 *
 * The file holds the tracks as columns, every number the float64 the build made, so a read gives the very
 * tracks a build gives. Its key (the code, HURDAT2's bytes, the years and the seed) is in the file: a file of
 * other code or data, or one cut short or damaged, is built again and replaced. It is written under a
 * temporary name and renamed, so a reader never sees half of one. One file per (years, seed); removing it
 * loses only time.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { codeDigest } from '../../package-cache/fingerprints.js';
import type { Track } from '../domain/track.js';
import { buildHurricaneTrackSet, HURDAT2_ATLANTIC } from '../track-set.js';

const FORMAT = 'catintel-hurricane-catalog/1';
const NUMBER_FIELDS = ['hours', 'lat', 'lng', 'windKt', 'pressureMb', 'rmwKm'] as const;

export interface Catalog {
  tracks: Track[];
  years: number;
}

interface Header {
  format: string;
  key: string;
  years: number;
  tracks: number;
  fixes: number;
  parents: string[];
}

/** The catalog of `years` years from `seed`: read from `cacheDir` when a file of this code and data is there, else built (and stored). */
export function cachedCatalog(o: { dataDir: string; years: number; seed: number; cacheDir: string }): Catalog {
  const record = path.join(o.dataDir, HURDAT2_ATLANTIC);
  // Without the record there is nothing to key a file by: the build says what is missing and where.
  if (!fs.existsSync(record)) return buildHurricaneTrackSet(o);
  const file = path.join(o.cacheDir, 'hurricane-catalogs', `${o.years}-years-seed-${o.seed}.bin`);
  const key = createHash('sha256')
    .update(`${codeDigest()}\0${o.years}\0${o.seed}\0`)
    .update(fs.readFileSync(record))
    .digest('hex');
  const read = readCatalog(file, key);
  if (read) return read;
  const set = buildHurricaneTrackSet(o);
  const catalog = { tracks: set.tracks, years: set.years };
  try {
    writeCatalog(file, key, catalog);
  } catch {
    // A cache that cannot be written (read-only, full) costs the next call the build again, nothing more.
  }
  return catalog;
}

/** Bytes up to the next multiple of 8: the float64 columns start on 8-byte boundaries. */
const padded = (n: number) => Math.ceil(n / 8) * 8;

export function writeCatalog(file: string, key: string, catalog: Catalog): void {
  const { tracks } = catalog;
  const fixes = tracks.reduce((s, t) => s + t.fixes.length, 0);
  const header: Header = {
    format: FORMAT,
    key,
    years: catalog.years,
    tracks: tracks.length,
    fixes,
    parents: tracks.map((t) => t.parentId),
  };
  const text = Buffer.from(JSON.stringify(header));
  const head = padded(text.length + 1);
  const ints = padded(tracks.length * 8);
  const bytes = new Uint8Array(head + ints + fixes * (8 * NUMBER_FIELDS.length + 1));
  bytes.fill(0x20, 0, head - 1).set(text);
  bytes[head - 1] = 0x0a;
  const idAndCount = new Int32Array(bytes.buffer, head, tracks.length * 2);
  tracks.forEach((t, i) => {
    idAndCount[2 * i] = t.eventId;
    idAndCount[2 * i + 1] = t.fixes.length;
  });
  const columns = NUMBER_FIELDS.map((_, c) => new Float64Array(bytes.buffer, head + ints + c * fixes * 8, fixes));
  const overLand = new Uint8Array(bytes.buffer, head + ints + NUMBER_FIELDS.length * fixes * 8, fixes);
  let k = 0;
  for (const t of tracks)
    for (const f of t.fixes) {
      NUMBER_FIELDS.forEach((name, c) => (columns[c][k] = f[name]));
      overLand[k++] = f.overLand ? 1 : 0;
    }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const draft = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(draft, bytes);
  fs.renameSync(draft, file);
}

/** The catalog in `file` when it is whole and of `key`; undefined otherwise (missing, other code or data, damaged). */
export function readCatalog(file: string, key: string): Catalog | undefined {
  let bytes: Uint8Array;
  try {
    const data = fs.readFileSync(file);
    bytes = new Uint8Array(data.length);
    bytes.set(data); // an ArrayBuffer of its own, so the columns' views are aligned
  } catch {
    return undefined;
  }
  const nl = bytes.indexOf(0x0a);
  if (nl < 0) return undefined;
  let header: Header;
  try {
    header = JSON.parse(Buffer.from(bytes.subarray(0, nl)).toString('utf8')) as Header;
  } catch {
    return undefined;
  }
  if (header.format !== FORMAT || header.key !== key) return undefined;
  const head = nl + 1;
  const ints = padded(header.tracks * 8);
  const fixes = header.fixes;
  if (head % 8 !== 0 || bytes.length !== head + ints + fixes * (8 * NUMBER_FIELDS.length + 1)) return undefined;
  const idAndCount = new Int32Array(bytes.buffer, head, header.tracks * 2);
  const columns = NUMBER_FIELDS.map((_, c) => new Float64Array(bytes.buffer, head + ints + c * fixes * 8, fixes));
  const overLand = new Uint8Array(bytes.buffer, head + ints + NUMBER_FIELDS.length * fixes * 8, fixes);
  const tracks: Track[] = [];
  let k = 0;
  for (let i = 0; i < header.tracks; i++) {
    const count = idAndCount[2 * i + 1];
    if (k + count > fixes) return undefined;
    const trackFixes: Track['fixes'] = [];
    for (let j = 0; j < count; j++, k++)
      trackFixes.push({
        hours: columns[0][k],
        lat: columns[1][k],
        lng: columns[2][k],
        windKt: columns[3][k],
        pressureMb: columns[4][k],
        rmwKm: columns[5][k],
        overLand: overLand[k] === 1,
      });
    tracks.push({ eventId: idAndCount[2 * i], parentId: header.parents[i], fixes: trackFixes });
  }
  return k === fixes ? { tracks, years: header.years } : undefined;
}
