/**
 * Oasis's item group_id: the damage-correlation group of a location, which Oasis computes as
 * pandas' `hash_pandas_object` of the lower-cased, name-sorted group columns (accnumber, locnumber,
 * portnumber), shifted right by 33 bits. Reproduced exactly so a run on our files draws the same
 * random numbers as one on Oasis's: SipHash-2-4 of each value's UTF-8 bytes (key "0123456789123456"),
 * a 64-bit finaliser per value, and pandas' column combiner.
 */
const M64 = (1n << 64n) - 1n;
const rotl = (x: bigint, b: bigint): bigint => ((x << b) | (x >> (64n - b))) & M64;
const KEY = Buffer.from('0123456789123456', 'utf8');
const K0 = KEY.readBigUInt64LE(0);
const K1 = KEY.readBigUInt64LE(8);

function sipHash24(data: Buffer): bigint {
  let v0 = K0 ^ 0x736f6d6570736575n;
  let v1 = K1 ^ 0x646f72616e646f6dn;
  let v2 = K0 ^ 0x6c7967656e657261n;
  let v3 = K1 ^ 0x7465646279746573n;
  const round = () => {
    v0 = (v0 + v1) & M64; v1 = rotl(v1, 13n); v1 ^= v0; v0 = rotl(v0, 32n);
    v2 = (v2 + v3) & M64; v3 = rotl(v3, 16n); v3 ^= v2;
    v0 = (v0 + v3) & M64; v3 = rotl(v3, 21n); v3 ^= v0;
    v2 = (v2 + v1) & M64; v1 = rotl(v1, 17n); v1 ^= v2; v2 = rotl(v2, 32n);
  };
  const full = data.length - (data.length % 8);
  for (let i = 0; i < full; i += 8) {
    const m = data.readBigUInt64LE(i);
    v3 ^= m; round(); round(); v0 ^= m;
  }
  let b = BigInt(data.length & 0xff) << 56n;
  for (let i = full, s = 0n; i < data.length; i++, s += 8n) b |= BigInt(data[i]) << s;
  v3 ^= b; round(); round(); v0 ^= b;
  v2 ^= 0xffn;
  round(); round(); round(); round();
  return (v0 ^ v1 ^ v2 ^ v3) & M64;
}

function mix(x: bigint): bigint {
  x ^= x >> 30n;
  x = (x * 0xbf58476d1ce4e5b9n) & M64;
  x ^= x >> 27n;
  x = (x * 0x94d049bb133111ebn) & M64;
  x ^= x >> 31n;
  return x;
}

/** pandas' hash of one string value. */
export function hashString(value: string): bigint {
  return mix(sipHash24(Buffer.from(value, 'utf8')));
}

/** pandas' combination of per-column hashes of one row (columns in their sorted-name order). */
export function combineHashes(hashes: readonly bigint[]): bigint {
  let out = 0x345678n;
  let mult = 1000003n;
  const n = BigInt(hashes.length);
  hashes.forEach((h, i) => {
    const inverse = n - BigInt(i);
    out = ((out ^ h) * mult) & M64;
    mult = (mult + 82520n + inverse + inverse) & M64;
  });
  return (out + 97531n) & M64;
}

/** Oasis's group_id of a location from its AccNumber, LocNumber and PortNumber as written in the file. */
export function groupIdOf(accNumber: string, locNumber: string, portNumber: string): number {
  return Number(combineHashes([hashString(accNumber), hashString(locNumber), hashString(portNumber)]) >> 33n);
}
