/**
 * Arrow column data made straight from JS values into the buffers Arrow lays out (offsets, bytes,
 * validity bits), for the event pages: apache-arrow's generic vectorFromArray goes through a builder per
 * value and cost ~60 ms for a 1,000-event page, most of an answer's time; these take under 2 ms,
 * and a live page's columns (src/live-index/columns.ts) well under 1 ms.
 */
import type { Utf8Column } from '../domain/event-columns.js';
import { Binary, Bool, Float64, TimestampMillisecond, Utf8, makeData, type Data } from 'apache-arrow';

/** A validity bitmap (bit set = a value) with its null count; the bitmap is dropped when nothing is null. */
class Validity {
  nulls = 0;
  readonly bits: Uint8Array;
  constructor(n: number) {
    this.bits = new Uint8Array((n + 7) >> 3);
  }
  present(i: number): void {
    this.bits[i >> 3] |= 1 << (i & 7);
  }
  get bitmap(): Uint8Array | null {
    return this.nulls ? this.bits : null;
  }
}

function offsetsAndBytes(parts: (Uint8Array | null)[]): { offsets: Int32Array; bytes: Uint8Array } {
  const offsets = new Int32Array(parts.length + 1);
  let total = 0;
  parts.forEach((p, i) => (offsets[i + 1] = total += p ? p.length : 0));
  const bytes = new Uint8Array(total);
  parts.forEach((p, i) => p && bytes.set(p, offsets[i]));
  return { offsets, bytes };
}

export function utf8Data(values: ArrayLike<unknown>): Data {
  const n = values.length;
  const texts = new Array<string>(n);
  const valid = new Validity(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      texts[i] = '';
      valid.nulls++;
    } else {
      texts[i] = typeof v === 'string' ? v : String(v);
      valid.present(i);
    }
  }
  // The column encoded at once (a write per value cost ~1 ms a 1,000-row column, as much as a page's JSON):
  // when it is all ASCII (ids, slugs, URLs, most titles) a text's bytes are its characters, so the offsets
  // are the lengths; otherwise they are the texts' UTF-8 lengths. Those add up to the whole's unless a lone
  // surrogate ends one text and its pair starts the next (they join in the whole): then each is written alone.
  const joined = texts.join('');
  let bytes = Buffer.from(joined, 'utf8');
  const offsets = new Int32Array(n + 1);
  let total = 0;
  const ascii = bytes.length === joined.length;
  for (let i = 0; i < n; i++) offsets[i + 1] = total += ascii ? texts[i].length : Buffer.byteLength(texts[i]);
  if (total !== bytes.length) {
    bytes = Buffer.allocUnsafe(total);
    for (let i = 0; i < n; i++) bytes.write(texts[i], offsets[i], 'utf8');
  }
  return makeData({
    type: new Utf8(),
    length: n,
    nullCount: valid.nulls,
    nullBitmap: valid.bitmap,
    valueOffsets: offsets,
    data: new Uint8Array(bytes.buffer, bytes.byteOffset, total),
  });
}

/** Text already encoded (src/domain/event-columns.ts Utf8Column): its buffers are the column's, none null. */
export function encodedUtf8Data(col: Utf8Column): Data {
  const n = col.offsets.length - 1;
  return makeData({ type: new Utf8(), length: n, nullCount: 0, valueOffsets: col.offsets, data: col.bytes });
}

export function binaryData(values: Uint8Array[]): Data {
  const { offsets, bytes } = offsetsAndBytes(values);
  return makeData({ type: new Binary(), length: values.length, nullCount: 0, valueOffsets: offsets, data: bytes });
}

/** Numbers; anything else is null. */
export function float64Data(values: ArrayLike<unknown>): Data {
  const n = values.length;
  const valid = new Validity(n);
  const data = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v === 'number') {
      data[i] = v;
      valid.present(i);
    } else valid.nulls++;
  }
  return makeData({ type: new Float64(), length: n, nullCount: valid.nulls, nullBitmap: valid.bitmap, data });
}

/** ISO 8601 texts (or null) as milliseconds since the epoch, UTC. */
export function timestampData(values: unknown[]): Data {
  return timestampMsData(values.map((v) => (v === null || v === undefined ? null : Date.parse(String(v)))));
}

/** Whether this machine stores numbers little-endian, as Arrow's buffers are read here (x86, ARM). */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const TWO_32 = 2 ** 32;

/**
 * Milliseconds since the epoch (anything but a finite number is null) as timestamp[ms, UTC]. Each int64 is
 * written as its two 32-bit words (a BigInt a value cost more than the rest of the column).
 */
export function timestampMsData(ms: ArrayLike<unknown>): Data {
  const n = ms.length;
  const valid = new Validity(n);
  const data = new BigInt64Array(n);
  const words = new Int32Array(data.buffer);
  for (let i = 0; i < n; i++) {
    const m = ms[i];
    if (typeof m === 'number' && Number.isFinite(m)) {
      const t = Math.trunc(m);
      if (LITTLE_ENDIAN) {
        words[2 * i] = (t % TWO_32) | 0; // the low word: t mod 2^32, as ToInt32 reads it
        words[2 * i + 1] = Math.floor(t / TWO_32) | 0;
      } else data[i] = BigInt(t);
      valid.present(i);
    } else valid.nulls++;
  }
  return makeData({
    type: new TimestampMillisecond('UTC'),
    length: n,
    nullCount: valid.nulls,
    nullBitmap: valid.bitmap,
    data,
  });
}

/** Points as WKB (src/columnar/wkb.ts), 21 bytes each, written straight into the column's one buffer. */
export function pointWkbData(lng: ArrayLike<number>, lat: ArrayLike<number>): Data {
  const n = lng.length;
  const offsets = new Int32Array(n + 1);
  const bytes = new Uint8Array(21 * n);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < n; i++) {
    const at = 21 * i;
    offsets[i + 1] = at + 21;
    bytes[at] = 1; // little-endian
    view.setUint32(at + 1, 1, true); // Point
    view.setFloat64(at + 5, lng[i], true);
    view.setFloat64(at + 13, lat[i], true);
  }
  return makeData({ type: new Binary(), length: n, nullCount: 0, valueOffsets: offsets, data: bytes });
}

export function boolData(values: ArrayLike<unknown>): Data {
  const n = values.length;
  const valid = new Validity(n);
  const data = new Uint8Array((n + 7) >> 3);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v !== 'boolean') valid.nulls++;
    else {
      valid.present(i);
      if (v) data[i >> 3] |= 1 << (i & 7);
    }
  }
  return makeData({ type: new Bool(), length: n, nullCount: valid.nulls, nullBitmap: valid.bitmap, data });
}
