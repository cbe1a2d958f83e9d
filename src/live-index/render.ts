/**
 * A page of hits as the bytes of the OGC collection the SQL path would JSON.stringify: the head as
 * collectionHead() writes collection()'s, the features copied from their prebuilt parts into one buffer of
 * the exact size.
 *
 * Each body also gets its strong ETag here, without hashing the body: a hash of what determines its bytes
 * (the head text, and per feature the entry's process-unique serial, its variant and distance_km). An
 * entry's prebuilt parts never change, so equal descriptions give equal bytes, and any change of the bytes
 * changes the description. A random per-process prefix keeps the tags of two server runs apart.
 */
import { hash, randomBytes } from 'node:crypto';
import type { EventColumns } from '../domain/event-columns.js';
import { collectionHead } from '../domain/features.js';
import { pageColumns } from './columns.js';
import { asOf, FEATURE_SEPARATOR, openFeature, showFeature, slotOf, type Entry } from './entry.js';
import { F_AT, F_LENGTH, F_SERIAL, F_SOURCE_SLOT, FEATURE_STRIDE, phaseAt } from './phase.js';
import { entryAt, type Snapshot } from './snapshot.js';
import { carve } from './slabs.js';

/** A body the index assembled, with what the HTTP layer would otherwise work out from its bytes (a HandlerResult's fields). */
export interface Assembled {
  body: Buffer;
  /** The strong ETag of these bytes, known without hashing them (src/http/respond.ts encode()). */
  etag: string;
  /** The sources of the events in the body, for X-Data-Freshness (src/http/freshness.ts). */
  sources: string[];
  /** Every body assembled here is GeoJSON (a FeatureCollection, or one Feature). */
  mediaType: 'application/geo+json';
  /** A collection's events as columns, for its Arrow form (columns.ts): made only when asked for. */
  columns?: () => EventColumns;
}

const GEOJSON = 'application/geo+json';

const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const DISTANCE_KM = Buffer.from(',"distance_km":', 'latin1');
const END = ']}';

/**
 * The collection of the events at `positions` of snapshot `s` (the first `n`), in that order, at `nowUs`, each
 * with its distance when `distancesKm` is given. A feature whose variant at now is the one laid out at the build
 * is read from the snapshot's arena by its position alone (no entry is touched: on a busy server, the entries'
 * objects are cache misses); the others are made from their entry.
 */
export function collectionBytes(
  s: Snapshot,
  nowUs: number,
  positions: ArrayLike<number>,
  n: number,
  distancesKm: ArrayLike<number> | undefined,
  o: { matched: number; now: string; self: string; next?: string },
): Assembled {
  const head = collectionHead(n, o);
  const arena = s.layout.arena;
  const features = phaseAt(s, nowUs).features;
  // Per feature: its offset in the arena, or -1 with its bytes made from the entry (`made`).
  const inArena = n <= scratchAt.length ? scratchAt : (scratchAt = new Float64Array(2 * n));
  const lengths = n <= scratchLength.length ? scratchLength : (scratchLength = new Float64Array(2 * n));
  const made: (Buffer | undefined)[] = [];
  // distance_km per feature as integer hundredths, its text written from them (kmLength, writeKm).
  const cents = n <= scratchCents.length ? scratchCents : (scratchCents = new Float64Array(2 * n));
  const sources: string[] = [];
  // What determines the body's bytes: per feature its entry's serial, variant and distance_km (NaN: none), then the head.
  const headBytes = Buffer.byteLength(head);
  const described = describing(n, headBytes);
  let size = headBytes + END.length + FEATURE_SEPARATOR.length * n - (n > 0 ? 1 : 0);
  for (let k = 0; k < n; k++) {
    const i = positions[k];
    const r = FEATURE_STRIDE * i;
    const sourceSlot = features[r + F_SOURCE_SLOT];
    let slot: number;
    if (features[r + F_AT] >= 0) {
      inArena[k] = features[r + F_AT];
      lengths[k] = features[r + F_LENGTH];
      slot = sourceSlot & 3;
    } else {
      const e = entryAt(s, i);
      const a = asOf(e, nowUs);
      const f = (made[k] = openFeature(e, a));
      inArena[k] = -1;
      lengths[k] = f.length;
      slot = slotOf(a);
    }
    size += lengths[k];
    let km = NaN;
    if (distancesKm) {
      const c = (cents[k] = Math.round(distancesKm[k] * 100));
      km = c / 100;
      size += DISTANCE_KM.length + kmLength(c);
    }
    described.numbers[3 * k] = features[r + F_SERIAL];
    described.numbers[3 * k + 1] = slot;
    described.numbers[3 * k + 2] = km;
    // A page holds a handful of sources at most, mostly one: no Set.
    const name = s.sources[sourceSlot >> 2];
    if (name !== sources[sources.length - 1] && !sources.includes(name)) sources.push(name);
  }
  const body = carve(size);
  let at = body.write(head, 0);
  for (let k = 0; k < n;) {
    // Features laid out one after another in the arena, with no distance, are one run of bytes there, the
    // `}},` between them included: copied with one call.
    let j = k;
    if (inArena[k] >= 0) {
      let end = inArena[k] + lengths[k];
      while (j + 1 < n && !distancesKm && inArena[j + 1] === end + FEATURE_SEPARATOR.length) {
        j++;
        end = inArena[j] + lengths[j];
      }
      body.set(arena.subarray(inArena[k], end), at);
      at += end - inArena[k];
    } else {
      body.set(made[k]!, at);
      at += made[k]!.length;
    }
    // The rest of the run's last feature is a few ASCII characters: no string is built for them (a Buffer.write
    // call per feature cost more than the copy of the feature).
    if (distancesKm) {
      body.set(DISTANCE_KM, at);
      at = writeKm(body, at + DISTANCE_KM.length, cents[j]);
    }
    body[at++] = CLOSE_BRACE;
    body[at++] = CLOSE_BRACE;
    if (j < n - 1) body[at++] = COMMA;
    k = j + 1;
  }
  at += body.write(END, at, 'latin1');
  if (at !== size) throw new Error(`live index: collection body is ${at} bytes, ${size} expected`);
  // One hash over the process tag, the per-feature numbers and the head (the head's bytes are the body's first).
  const headAt = described.headAt;
  body.copy(described.bytes, headAt, 0, headBytes);
  return {
    body,
    sources,
    etag: `"${hash('sha1', described.bytes.subarray(0, headAt + headBytes), 'base64url')}"`,
    mediaType: GEOJSON,
    columns: () => pageColumns(s, nowUs, positions, n, distancesKm, o),
  };
}

/** Arena offsets and distances of the features of the body being made (synchronous: one array each serves every request). */
let scratchAt = new Float64Array(1024);
let scratchLength = new Float64Array(1024);
let scratchCents = new Float64Array(1024);

/**
 * The bytes hashed into a collection's ETag, in one scratch buffer (synchronous: one serves every request):
 * PROCESS_TAG, padded to 16 bytes; 3 doubles a feature; then the head, copied in. A head never reads as
 * doubles that are serials (whole numbers from 1), so the bytes split into their parts one way only.
 */
const PROCESS_TAG = randomBytes(9).toString('base64url');
const TAG_BYTES = 16;
let scratch = scratchOf(TAG_BYTES + 3 * 8 * 1024 + 4096);

function scratchOf(size: number): { bytes: Buffer; numbers: Float64Array } {
  const buffer = new ArrayBuffer(size);
  const bytes = Buffer.from(buffer);
  bytes.write(PROCESS_TAG, 0, 'latin1');
  return { bytes, numbers: new Float64Array(buffer, TAG_BYTES, (size - TAG_BYTES) >> 3) };
}

function describing(n: number, headBytes: number): { numbers: Float64Array; bytes: Buffer; headAt: number } {
  const headAt = TAG_BYTES + 3 * 8 * n;
  if (headAt + headBytes > scratch.bytes.length) scratch = scratchOf(2 * (headAt + headBytes));
  return { numbers: scratch.numbers, bytes: scratch.bytes, headAt };
}

/**
 * String(Math.round(km * 100) / 100), the text JSON.stringify gives distance_km on the SQL path, from the
 * integer hundredths c (a double's shortest form costs twice as much, and a string per feature more still):
 * the whole part, then "." and one or two digits unless they are zeros. For an integer c below 1e9 the
 * decimal c/100 is the shortest text that reads back as the double c / 100, so the two agree; checked on 5
 * million random distances and the rounding edges (test/live-index-km.test.ts). A distance on Earth is at
 * most 20,016 km: c stays below 3e6.
 */
export function kmLength(c: number): number {
  const whole = Math.floor(c / 100);
  const r = c - whole * 100;
  return digitsOf(whole) + (r === 0 ? 0 : r % 10 === 0 ? 2 : 3);
}

/** Decimal digits of a whole number below 1e7 (comparisons: a loop of divisions cost more than the copy of a feature). */
const digitsOf = (w: number): number =>
  w < 10 ? 1 : w < 100 ? 2 : w < 1000 ? 3 : w < 10000 ? 4 : w < 100000 ? 5 : w < 1000000 ? 6 : 7;

/** Writes the text of kmLength(c) at body[at]; returns the offset after it. Integer arithmetic: c < 3e6. */
export function writeKm(body: Uint8Array, at: number, c: number): number {
  const whole = (c / 100) | 0;
  const r = c - whole * 100;
  let end = at + digitsOf(whole);
  let p = end;
  let w = whole;
  do {
    const q = (w / 10) | 0;
    body[--p] = 0x30 + w - q * 10;
    w = q;
  } while (w > 0);
  if (r !== 0) {
    const tens = (r / 10) | 0;
    body[end++] = 0x2e;
    body[end++] = 0x30 + tens;
    if (r !== tens * 10) body[end++] = 0x30 + r - tens * 10;
  }
  return end;
}

/** The content hash of each kept /events/{id} body, made once (the entry keeps the same Buffer while ended_at is null). */
const tagOfShown = new WeakMap<Buffer, string>();

export function showBytes(e: Entry, nowUs: number): Assembled {
  const body = showFeature(e, asOf(e, nowUs));
  let etag = tagOfShown.get(body);
  if (etag === undefined) tagOfShown.set(body, (etag = `"${hash('sha1', body, 'base64url')}"`));
  return { body, etag, sources: [e.source], mediaType: GEOJSON, columns: undefined };
}
