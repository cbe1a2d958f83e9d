// AssemblyScript (see index.ts). Philox4x32-7 and gulmc's Latin hypercube, as domain/philox.ts
// (philox4x32_7, philoxLatinHypercube) computes them: per seed, stream 1 of the counter drives a
// Fisher-Yates shuffle of the strata 1..S and stream 0 the jitter within each stratum, the same words and
// the same doubles.

import { S } from './positions';

// Latin hypercube strata (S f64), laid out by the host and handed over by setupSampler (sample.ts).
let perms: usize = 0;

export function setupStrata(strata: usize): void {
  perms = strata;
}

const M0: u64 = 0xd2511f53;
const M1: u64 = 0xcd9e8d57;
const W0: u32 = 0x9e3779b9;
const W1: u32 = 0xbb67ae85;
const INV32: f64 = 1.0 / 4294967296.0;

// The block of the last philox() call.
let w0: u32 = 0;
let w1: u32 = 0;
let w2: u32 = 0;
let w3: u32 = 0;

/** One Philox4x32-7 block for counter (c0, c1, 0, 0) and key (k0, k1), into w0..w3. */
function philox(c0: u32, c1: u32, k0: u32, k1: u32): void {
  let c2: u32 = 0;
  let c3: u32 = 0;
  for (let r = 0; r < 7; r++) {
    const p0 = M0 * <u64>c0;
    const p1 = M1 * <u64>c2;
    const n0 = (<u32>(p1 >> 32)) ^ c1 ^ k0;
    const n2 = (<u32>(p0 >> 32)) ^ c3 ^ k1;
    c0 = n0;
    c1 = <u32>p1;
    c2 = n2;
    c3 = <u32>p0;
    k0 += W0;
    k1 += W1;
  }
  w0 = c0; w1 = c1; w2 = c2; w3 = c3;
}

/**
 * Word 0 of the block for counter (0, 0, 0, 0): all one sample needs. The first round of a zero counter
 * multiplies zeros (it leaves (k0, 0, k1, 0)), and of the last round only word 0 is kept.
 */
function firstWord(k0: u32, k1: u32): u32 {
  let c0 = k0;
  let c1: u32 = 0;
  let c2 = k1;
  let c3: u32 = 0;
  k0 += W0;
  k1 += W1;
  for (let r = 1; r < 6; r++) {
    const p0 = M0 * <u64>c0;
    const p1 = M1 * <u64>c2;
    c0 = (<u32>(p1 >> 32)) ^ c1 ^ k0;
    c2 = (<u32>(p0 >> 32)) ^ c3 ^ k1;
    c1 = <u32>p1;
    c3 = <u32>p0;
    k0 += W0;
    k1 += W1;
  }
  return (<u32>((M1 * <u64>c2) >> 32)) ^ c1 ^ k0;
}

@inline function word(k: i32): u32 {
  return k == 0 ? w0 : k == 1 ? w1 : k == 2 ? w2 : w3;
}

/** philoxLatinHypercube(seed, S) into S f64 at `to`: seed in (-2^31, 2^31), its key's high word 0 or all ones. */
export function latinHypercube(seed: i64, to: usize): void {
  const k0 = <u32>seed;
  const k1 = <u32>(seed >> 32);
  if (S == 1) {
    store<f64>(to, 1.0 - <f64>firstWord(k0, k1) * INV32);
    return;
  }
  for (let k = 0; k < S; k++) store<f64>(perms + (<usize>k << 3), <f64>(k + 1));
  let ctr: u32 = 0;
  let used = 4;
  for (let idx = S - 1; idx >= 1; idx--) {
    if (used == 4) {
      philox(ctr++, 1, k0, k1);
      used = 0;
    }
    const jj = <i32>Math.floor(<f64>word(used++) * INV32 * <f64>(idx + 1));
    const a = perms + (<usize>idx << 3);
    const b = perms + (<usize>jj << 3);
    const t = load<f64>(a);
    store<f64>(a, load<f64>(b));
    store<f64>(b, t);
  }
  ctr = 0;
  used = 4;
  const inv = 1.0 / <f64>S;
  for (let k = 0; k < S; k++) {
    if (used == 4) {
      philox(ctr++, 0, k0, k1);
      used = 0;
    }
    store<f64>(to + (<usize>k << 3), (load<f64>(perms + (<usize>k << 3)) - <f64>word(used++) * INV32) * inv);
  }
}

// ---- For the tests (wasm/kernel-module.test.ts): against domain/philox.ts philoxLatinHypercube.

/** The S draws of a seed (rng.ts draws) into `to`. */
export function drawSeed(seed: f64, to: usize): void {
  latinHypercube(<i64>seed, to);
}
