/**
 * Philox4x32-7 (Random123's counter-based generator, 7 rounds) and the Latin-hypercube sampler that
 * oasislmf 2.5's gulmc draws with by default (random_generator 2, `random_LatinHypercube_Philox7` in
 * pytools gul/random.py). Per seed, stream 1 of the counter drives a Fisher-Yates shuffle of the
 * strata 1..n and stream 0 the jitter within each stratum: value k = (perm[k] - u_k) / n.
 */
const M0 = 0xd2511f53;
const M1 = 0xcd9e8d57;
const W0 = 0x9e3779b9;
const W1 = 0xbb67ae85;
const INV32 = 1 / 4294967296;

/**
 * High 32 bits of the 64-bit product a * m of two uint32, given its low 32 bits `lo` (Math.imul): the
 * double a * m is within 2^10 of the exact product, so (a * m - lo) / 2^32 is within 2^-21 of the exact
 * high word, an integer, and rounding recovers it.
 */
function mulhi(a: number, m: number, lo: number): number {
  return Math.round((a * m - lo) * INV32);
}

/** One Philox4x32-7 block for counter (c0, c1, c2, c3) and key (k0, k1), into out[0..3]. */
export function philox4x32_7(
  c0: number,
  c1: number,
  c2: number,
  c3: number,
  k0: number,
  k1: number,
  out: Uint32Array,
): void {
  for (let r = 0; r < 7; r++) {
    const lo0 = Math.imul(M0, c0) >>> 0;
    const hi0 = mulhi(M0, c0, lo0);
    const lo1 = Math.imul(M1, c2) >>> 0;
    const hi1 = mulhi(M1, c2, lo1);
    const n0 = (hi1 ^ c1 ^ k0) >>> 0;
    const n2 = (hi0 ^ c3 ^ k1) >>> 0;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
    k0 = (k0 + W0) >>> 0;
    k1 = (k1 + W1) >>> 0;
  }
  out[0] = c0;
  out[1] = c1;
  out[2] = c2;
  out[3] = c3;
}

/**
 * The first word of the block for counter (0, 0, 0, 0): all one sample's jitter needs. The first round
 * of a zero counter multiplies zeros (it leaves (k0, 0, k1, 0)); the last only needs the word kept.
 * The words are kept as int32 (the same 32 bits), read as unsigned only where they are multiplied.
 */
function jitterWord(key0: number, key1: number): number {
  let c0 = key0 | 0;
  let c1 = 0;
  let c2 = key1 | 0;
  let c3 = 0;
  let k0 = (key0 + W0) | 0;
  let k1 = (key1 + W1) | 0;
  for (let r = 1; r < 6; r++) {
    const lo0 = Math.imul(M0, c0);
    const hi0 = Math.round(((c0 >>> 0) * M0 - (lo0 >>> 0)) * INV32);
    const lo1 = Math.imul(M1, c2);
    const hi1 = Math.round(((c2 >>> 0) * M1 - (lo1 >>> 0)) * INV32);
    c2 = hi0 ^ c3 ^ k1;
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c3 = lo0;
    k0 = (k0 + W0) | 0;
    k1 = (k1 + W1) | 0;
  }
  const lo1 = Math.imul(M1, c2);
  return (Math.round(((c2 >>> 0) * M1 - (lo1 >>> 0)) * INV32) ^ c1 ^ k0) >>> 0;
}

const STREAM_JITTER = 0;
const STREAM_SHUFFLE = 1;

// Scratch reused across calls (the kernel draws once per group and event: nothing is allocated per draw).
let perms = new Float64Array(16);
const w = new Uint32Array(4);

/** n Latin-hypercube values in (0, 1] for one seed, as random_LatinHypercube_Philox7, into out[offset ..]. */
export function philoxLatinHypercube(seed: number, n: number, out: Float64Array, offset = 0): void {
  const k0 = (seed % 4294967296) >>> 0;
  const k1 = Math.floor(seed / 4294967296) >>> 0;
  if (n === 1) {
    // One stratum: no shuffle, the jitter of the first word.
    out[offset] = 1 - jitterWord(k0, k1) * INV32;
    return;
  }
  if (perms.length < n) perms = new Float64Array(n);
  for (let k = 0; k < n; k++) perms[k] = k + 1;
  // Words are consumed in order, four per counter value, for swaps idx = n-1 down to 1.
  let ctr = 0;
  let used = 4;
  for (let idx = n - 1; idx >= 1; idx--) {
    if (used === 4) {
      philox4x32_7(ctr++, STREAM_SHUFFLE, 0, 0, k0, k1, w);
      used = 0;
    }
    const jj = Math.floor(w[used++] * INV32 * (idx + 1));
    const t = perms[idx];
    perms[idx] = perms[jj];
    perms[jj] = t;
  }
  ctr = 0;
  used = 4;
  for (let k = 0; k < n; k++) {
    if (used === 4) {
      philox4x32_7(ctr++, STREAM_JITTER, 0, 0, k0, k1, w);
      used = 0;
    }
    out[offset + k] = (perms[k] - w[used++] * INV32) * (1 / n);
  }
}
