/**
 * Oasis's item group_id: the damage-correlation group of a location, which Oasis computes as
 * pandas' `hash_pandas_object` of the lower-cased, name-sorted group columns (accnumber, locnumber,
 * portnumber), shifted right by 33 bits. Reproduced exactly so a run on our files draws the same
 * random numbers as one on Oasis's: SipHash-2-4 of each value's UTF-8 bytes (key "0123456789123456"),
 * a 64-bit finaliser per value, and pandas' column combiner.
 *
 * The 64-bit words are kept as two unsigned 32-bit halves (hi, lo) in plain numbers: BigInt
 * arithmetic allocates on every operation and made this the slowest step of a large portfolio.
 */

/** A 64-bit word as unsigned 32-bit halves. */
interface U64 {
  hi: number;
  lo: number;
}

const KEY = Buffer.from('0123456789123456', 'utf8');
const K0: U64 = { hi: KEY.readUInt32LE(4), lo: KEY.readUInt32LE(0) };
const K1: U64 = { hi: KEY.readUInt32LE(12), lo: KEY.readUInt32LE(8) };
const TWO32 = 4294967296;

// SipHash state, module-level so a hash allocates nothing.
let v0h = 0,
  v0l = 0,
  v1h = 0,
  v1l = 0,
  v2h = 0,
  v2l = 0,
  v3h = 0,
  v3l = 0;

/** (ah, al) + (bh, bl) mod 2^64, returned through addHi / addLo. */
let addHi = 0,
  addLo = 0;
function add(ah: number, al: number, bh: number, bl: number): void {
  const lo = al + bl;
  addLo = lo >>> 0;
  addHi = (ah + bh + (lo >= TWO32 ? 1 : 0)) >>> 0;
}

/** Rotation left by b bits (0 < b < 64), returned through rotHi / rotLo. */
let rotHi = 0,
  rotLo = 0;
function rotl(h: number, l: number, b: number): void {
  if (b === 32) {
    rotHi = l;
    rotLo = h;
    return;
  }
  if (b > 32) {
    const t = h;
    h = l;
    l = t;
    b -= 32;
  }
  rotHi = ((h << b) | (l >>> (32 - b))) >>> 0;
  rotLo = ((l << b) | (h >>> (32 - b))) >>> 0;
}

function sipRound(): void {
  add(v0h, v0l, v1h, v1l);
  v0h = addHi;
  v0l = addLo;
  rotl(v1h, v1l, 13);
  v1h = (rotHi ^ v0h) >>> 0;
  v1l = (rotLo ^ v0l) >>> 0;
  rotl(v0h, v0l, 32);
  v0h = rotHi;
  v0l = rotLo;
  add(v2h, v2l, v3h, v3l);
  v2h = addHi;
  v2l = addLo;
  rotl(v3h, v3l, 16);
  v3h = (rotHi ^ v2h) >>> 0;
  v3l = (rotLo ^ v2l) >>> 0;
  add(v0h, v0l, v3h, v3l);
  v0h = addHi;
  v0l = addLo;
  rotl(v3h, v3l, 21);
  v3h = (rotHi ^ v0h) >>> 0;
  v3l = (rotLo ^ v0l) >>> 0;
  add(v2h, v2l, v1h, v1l);
  v2h = addHi;
  v2l = addLo;
  rotl(v1h, v1l, 17);
  v1h = (rotHi ^ v2h) >>> 0;
  v1l = (rotLo ^ v2l) >>> 0;
  rotl(v2h, v2l, 32);
  v2h = rotHi;
  v2l = rotLo;
}

function absorb(mh: number, ml: number): void {
  v3h = (v3h ^ mh) >>> 0;
  v3l = (v3l ^ ml) >>> 0;
  sipRound();
  sipRound();
  v0h = (v0h ^ mh) >>> 0;
  v0l = (v0l ^ ml) >>> 0;
}

function sipHash24(data: Buffer, length = data.length): U64 {
  v0h = (K0.hi ^ 0x736f6d65) >>> 0;
  v0l = (K0.lo ^ 0x70736575) >>> 0;
  v1h = (K1.hi ^ 0x646f7261) >>> 0;
  v1l = (K1.lo ^ 0x6e646f6d) >>> 0;
  v2h = (K0.hi ^ 0x6c796765) >>> 0;
  v2l = (K0.lo ^ 0x6e657261) >>> 0;
  v3h = (K1.hi ^ 0x74656462) >>> 0;
  v3l = (K1.lo ^ 0x79746573) >>> 0;
  const full = length - (length % 8);
  for (let i = 0; i < full; i += 8) absorb(data.readUInt32LE(i + 4), data.readUInt32LE(i));
  // The last block: the remaining bytes, little-endian, with the length's low byte on top.
  let bl = 0;
  let bh = (length & 0xff) << 24;
  for (let i = full, s = 0; i < length; i++, s += 8) {
    if (s < 32) bl |= data[i] << s;
    else bh |= data[i] << (s - 32);
  }
  absorb(bh >>> 0, bl >>> 0);
  v2l = (v2l ^ 0xff) >>> 0;
  sipRound();
  sipRound();
  sipRound();
  sipRound();
  return { hi: (v0h ^ v1h ^ v2h ^ v3h) >>> 0, lo: (v0l ^ v1l ^ v2l ^ v3l) >>> 0 };
}

/** (ah, al) * (bh, bl) mod 2^64: the low word's product exactly from 16-bit pieces, the cross terms mod 2^32. */
function mul(a: U64, bh: number, bl: number): U64 {
  const a0 = a.lo & 0xffff,
    a1 = a.lo >>> 16,
    b0 = bl & 0xffff,
    b1 = bl >>> 16;
  const mid = a0 * b1 + a1 * b0;
  const low = a0 * b0 + (mid % 65536) * 65536;
  const hi = a1 * b1 + Math.floor(mid / 65536) + Math.floor(low / TWO32);
  return { hi: (hi + Math.imul(a.hi, bl) + Math.imul(a.lo, bh)) >>> 0, lo: low >>> 0 };
}

function shiftXor(x: U64, b: number): U64 {
  // x ^= x >> b, for 0 < b < 32
  const lo = ((x.lo >>> b) | (x.hi << (32 - b))) >>> 0;
  return { hi: (x.hi ^ (x.hi >>> b)) >>> 0, lo: (x.lo ^ lo) >>> 0 };
}

function mix(x: U64): U64 {
  x = shiftXor(x, 30);
  x = mul(x, 0xbf58476d, 0x1ce4e5b9);
  x = shiftXor(x, 27);
  x = mul(x, 0x94d049bb, 0x133111eb);
  return shiftXor(x, 31);
}

/** Where a short ASCII word's bytes are put to be hashed: a book's million LocNumbers make no Buffer each. */
const WORD_BYTES = Buffer.alloc(64);

function hashWord(value: string): U64 {
  const n = value.length;
  if (n <= WORD_BYTES.length) {
    let ascii = true;
    for (let i = 0; i < n; i++) {
      const c = value.charCodeAt(i);
      if (c >= 0x80) {
        ascii = false;
        break;
      }
      WORD_BYTES[i] = c;
    }
    if (ascii) return mix(sipHash24(WORD_BYTES, n));
  }
  return mix(sipHash24(Buffer.from(value, 'utf8')));
}

function combine(hashes: readonly U64[]): U64 {
  let out: U64 = { hi: 0, lo: 0x345678 };
  let mult = 1000003;
  const n = hashes.length;
  for (let i = 0; i < n; i++) {
    const h = hashes[i];
    out = mul({ hi: (out.hi ^ h.hi) >>> 0, lo: (out.lo ^ h.lo) >>> 0 }, Math.floor(mult / TWO32) >>> 0, mult >>> 0);
    mult += 82520 + 2 * (n - i);
  }
  add(out.hi, out.lo, 0, 97531);
  return { hi: addHi, lo: addLo };
}

/**
 * Hashes of values that repeat from row to row (an account's number on each of its locations, the
 * portfolio's on all): each computed once. Bounded, as a book's account numbers may all differ.
 */
const repeatedWords = new Map<string, U64>();
const REPEATED_WORDS_MAX = 1 << 16;

function hashRepeatedWord(value: string): U64 {
  let h = repeatedWords.get(value);
  if (h === undefined) {
    if (repeatedWords.size >= REPEATED_WORDS_MAX) repeatedWords.clear();
    h = hashWord(value);
    repeatedWords.set(value, h);
  }
  return h;
}

/** Oasis's group_id of a location from its AccNumber, LocNumber and PortNumber as written in the file. */
export function groupIdOf(accNumber: string, locNumber: string, portNumber: string): number {
  // The top 31 bits of the combined hash (>> 33).
  return combine([hashRepeatedWord(accNumber), hashWord(locNumber), hashRepeatedWord(portNumber)]).hi >>> 1;
}

/**
 * Oasis's group_id of an account of an account-only (cyber) book: the same hash over the group columns
 * the account has, AccNumber and PortNumber (there is no LocNumber to hash).
 */
export function groupIdOfAccount(accNumber: string, portNumber: string): number {
  return combine([hashWord(accNumber), hashWord(portNumber)]).hi >>> 1;
}
