// AssemblyScript (see index.ts). The sampled ground-up loss of an areaperil's items, as gulmc draws
// it and domain/sample.ts documents it:
//  1. each group's draws for the event (Latin hypercube on Philox4x32-7, seeded by group and event);
//  2. the correlated uniform, z = sqrt(rho) * ppf(group draw) + sqrt(1 - rho) * ppf(item draw), back
//     through gulmc's normal tables;
//  3. the damage bin by binary search of the float32 cdf, the loss interpolated within the bin.

/** Math.log of the host: the same bits as JavaScript's (V8 calls its own log directly for this import). */
@external("env", "log")
declare function hostLog(x: f64): f64;
/** Entry k of gulmc's normal cdf table, computed by the host (domain/normal.ts) when first read. */
@external("env", "cdfEntry")
declare function hostCdfEntry(k: i32): f64;

import { n, pItem, S } from './positions';

// Per position:
let pTiv: usize = 0; // f32
let pVuln: usize = 0; // i32, dense vulnerability
let pDamage: usize = 0; // i32, dense damage group
let pDamageTerm: usize = 0; // i32, seed term of the damage group
let pCorr: usize = 0; // i32, dense correlation group, -1 without a correlated draw
let pCorrTerm: usize = 0; // i32
let pHazard: usize = 0; // i32
let pHazardTerm: usize = 0; // i32
let pSqrtRho: usize = 0; // f64
let pSqrtRest: usize = 0; // f64
// Draws of the current event per group: S values (f64), the epoch they were drawn for (i32), and for
// the correlation groups the ppf of each value.
let damageValues: usize = 0;
let damageStamp: usize = 0;
let corrValues: usize = 0;
let corrNorm: usize = 0;
let corrStamp: usize = 0;
let hazardValues: usize = 0;
let hazardStamp: usize = 0;
// gulmc's normal cdf table (NORM_N f64; NaN where not computed yet).
let cdfTable: usize = 0;
// Damage cdfs: per key (dense vulnerability * intensity bins + intensity bin) the offset (in f32 entries
// from cdfArena) and the length of its float32 cdf.
let cdfStart: usize = 0; // i32
let cdfLength: usize = 0; // i32
let cdfArena: usize = 0; // f32
let intensityBins: i32 = 0;
// damage_bin_dict by bin position, float32.
let binFrom: usize = 0;
let binTo: usize = 0;
let binMean: usize = 0;
// The event's hazard cdf and intensity bins of the current areaperil (filled by the host when it has
// more than one intensity bin).
let hazCdf: usize = 0; // f32
let hazBin: usize = 0; // i32
// The losses, samples x items row-major by sample (f64); the host reads them.
let out: usize = 0;
// Scratch of one run, per draw: the uniform, the correlation's two terms, the intensity bin, correlated or not.
let runU: usize = 0;
let runX: usize = 0;
let runB: usize = 0;
let runBin: usize = 0; // i32
let runC: usize = 0; // u8
let runList: usize = 0; // i32, the draws pass 2 correlates
// Latin hypercube strata (S f64).
let perms: usize = 0;
// Per sample, the bound of noDamageBound (i32); per damage cdf key, its entryBelow (i32, -2 until computed).
let runK: usize = 0;
let cdfBelow: usize = 0;

// ---- The current event.
let epoch: i32 = 0;
let damageEventTerm: i64 = 0;
let corrEventTerm: i64 = 0;
let hazardEventTerm: i64 = 0;

const DAMAGE_M: i64 = 2147483648;
const CORR_M: i64 = 2147483648;
const HAZARD_M: i64 = 1957483729;

export function setupSampler(
  tiv: usize, vuln: usize, damage: usize, damageTerm: usize, corr: usize, corrTerm: usize, hazard: usize, hazardTerm: usize, sqrtRho: usize, sqrtRest: usize,
  dValues: usize, dStamp: usize, cValues: usize, cNorm: usize, cStamp: usize, hValues: usize, hStamp: usize,
  table: usize, start: usize, length: usize, arena: usize, bins: i32, from: usize, to: usize, mean: usize,
  hCdf: usize, hBin: usize, losses: usize, u: usize, x: usize, b: usize, bin: usize, c: usize, strata: usize,
  bounds: usize, below: usize, list: usize,
): void {
  pTiv = tiv; pVuln = vuln; pDamage = damage; pDamageTerm = damageTerm; pCorr = corr; pCorrTerm = corrTerm;
  pHazard = hazard; pHazardTerm = hazardTerm; pSqrtRho = sqrtRho; pSqrtRest = sqrtRest;
  damageValues = dValues; damageStamp = dStamp; corrValues = cValues; corrNorm = cNorm; corrStamp = cStamp; hazardValues = hValues; hazardStamp = hStamp;
  cdfTable = table; cdfStart = start; cdfLength = length; cdfArena = arena; intensityBins = bins;
  binFrom = from; binTo = to; binMean = mean;
  hazCdf = hCdf; hazBin = hBin; out = losses;
  runU = u; runX = x; runB = b; runBin = bin; runC = c; perms = strata;
  runK = bounds; cdfBelow = below; runList = list;
}

/** Draws from now on are for this event (its seed terms, computed by the host as rng.ts SeedHash.event). */
export function startEvent(e: i32, damageTerm: f64, corrTerm: f64, hazardTerm: f64): void {
  epoch = e;
  damageEventTerm = <i64>damageTerm;
  corrEventTerm = <i64>corrTerm;
  hazardEventTerm = <i64>hazardTerm;
}

// ---- Philox4x32-7 and gulmc's Latin hypercube (philox.ts).

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
function latinHypercube(seed: i64, to: usize): void {
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

/** (group term + event term) mod m, both terms in (-m, m) as rng.ts SeedHash.seed. */
@inline function seedOf(groupTerm: i32, eventTerm: i64, m: i64): i64 {
  const sum = <i64>groupTerm + eventTerm;
  return sum >= m ? sum - m : sum;
}

/** Offset of group g's S draws for this event, drawn on its first use in the event. */
@inline function groupAt(values: usize, stamp: usize, g: i32, groupTerm: i32, eventTerm: i64, m: i64): usize {
  const at = values + ((<usize>g * <usize>S) << 3);
  const st = stamp + (<usize>g << 2);
  if (load<i32>(st) != epoch) {
    latinHypercube(seedOf(groupTerm, eventTerm, m), at);
    store<i32>(st, epoch);
  }
  return at;
}

/**
 * Offset in corrNorm of correlation group g's ppf values for this event: the group's shared draws and
 * their ppf, computed on its first use in the event.
 */
function correlationAt(g: i32, groupTerm: i32): usize {
  const offset = (<usize>g * <usize>S) << 3;
  const st = corrStamp + (<usize>g << 2);
  if (load<i32>(st) != epoch) {
    const at = corrValues + offset;
    latinHypercube(seedOf(groupTerm, corrEventTerm, CORR_M), at);
    for (let s = 0; s < S; s++) store<f64>(corrNorm + offset + (<usize>s << 3), toNorm(load<f64>(at + (<usize>s << 3))));
    store<i32>(st, epoch);
  }
  return corrNorm + offset;
}

// ---- gulmc's normal tables (normal.ts).

const NORM_N: i32 = 1000000;
const X_MIN: f64 = 1e-16;
const X_MAX: f64 = 1 - 1e-16;
const CDF_MIN: f64 = -20;
const CDF_MAX: f64 = 20;
const INV_FACTOR: f64 = <f64>(NORM_N - 1) / (X_MAX - X_MIN);
const NORM_FACTOR: f64 = <f64>(NORM_N - 1) / (CDF_MAX - CDF_MIN);
const X_STEP: f64 = (X_MAX - X_MIN) / <f64>(NORM_N - 1);
const TAIL: f64 = 0.025;
const UPPER_TAIL: f64 = 1 - TAIL;

/** normal.ts normPpf: Wichura's AS 241. */
function normPpf(p: f64): f64 {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q * (((((((r * 2509.0809287301226727 + 33430.575583588128105) * r + 67265.770927008700853) * r + 45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r + 133.14166789178437745) * r + 3.387132872796366608)) /
      (((((((r * 5226.495278852854561 + 28729.085735721942674) * r + 39307.89580009271061) * r + 21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r + 42.313330701600911252) * r + 1)
    );
  }
  let r = Math.sqrt(-hostLog(q < 0 ? p : 1 - p));
  let x: f64;
  if (r <= 5) {
    r -= 1.6;
    x =
      (((((((r * 7.7454501427834140764e-4 + 0.0227238449892691845833) * r + 0.24178072517745061177) * r + 1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r + 4.6303378461565452959) * r + 1.42343711074968357734) /
      (((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r + 0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r + 2.05319162663775882187) * r + 1);
  } else {
    r -= 5;
    x =
      (((((((r * 2.01033439929228813265e-7 + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r + 0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r + 5.4637849111641143699) * r + 6.6579046435011037772) /
      (((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r + 7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r + 0.59983220655588793769) * r + 1);
  }
  return q < 0 ? -x : x;
}

/** Entry k of gulmc's ppf table (normal.ts ppfEntry: numpy.linspace's k-th point). */
@inline function ppfEntry(k: i32): f64 {
  return normPpf(k == NORM_N - 1 ? X_MAX : <f64>k * X_STEP + X_MIN);
}

/** normal.ts toNorm: interpolated in the tails, truncated elsewhere. */
function toNorm(u: f64): f64 {
  const pos = (u - X_MIN) * INV_FACTOR;
  if (u < TAIL || u > UPPER_TAIL) {
    const fl = Math.floor(pos);
    const frac = pos - fl;
    const lower = fl < 0 ? 0 : fl > <f64>(NORM_N - 2) ? NORM_N - 2 : <i32>fl;
    const a = ppfEntry(lower);
    return a + frac * (ppfEntry(lower + 1) - a);
  }
  const tr = Math.trunc(pos);
  const index = tr < 0 ? 0 : tr > <f64>(NORM_N - 1) ? NORM_N - 1 : <i32>tr;
  return ppfEntry(index);
}

@inline function cdfAt(k: i32): f64 {
  const at = cdfTable + (<usize>k << 3);
  let v = load<f64>(at);
  if (v != v) {
    v = hostCdfEntry(k);
    store<f64>(at, v);
  }
  return v;
}

/** normal.ts fromNorm: interpolated between the two entries around z. */
function fromNorm(z: f64): f64 {
  const pos = (z - CDF_MIN) * NORM_FACTOR;
  const fl = Math.floor(pos);
  const frac = pos - fl;
  const lower = fl < 0 ? 0 : fl > <f64>(NORM_N - 2) ? NORM_N - 2 : <i32>fl;
  const a = cdfAt(lower);
  return a + frac * (cdfAt(lower + 1) - a);
}

// ---- Damage.

/**
 * First index in a[0 .. count - 1] (float32) not below value, count when none (the lower bound that
 * sample.ts's bisection finds), without a branch on the data: the halving depends only on count, the
 * step taken is a select.
 */
@inline function binarySearch(value: f64, a: usize, count: i32): i32 {
  if (count == 0) return 0;
  let base = 0;
  let len = count;
  while (len > 1) {
    const half = len >> 1;
    base = select(base + half, base, <f64>load<f32>(a + (<usize>(base + half - 1) << 2)) < value);
    len -= half;
  }
  return base + i32(<f64>load<f32>(a + (<usize>base << 2)) < value);
}

@inline function fround(x: f64): f64 {
  return <f64><f32>x;
}

/** sample.ts getGul (oasislmf 2.5 get_gul). */
function getGul(from: f64, to: f64, mean: f64, probFrom: f64, probTo: f64, rval: f64, scaling: f64): f64 {
  const width = fround(to - from);
  if (width == 0) return scaling * to;
  const height = probTo - probFrom;
  const offset = rval - probFrom;
  const x = fround(fround(mean - from) / width);
  if (Math.abs(x - 0.5) <= 5e-6) return scaling * (from + (offset * width) / height);
  const aa = ((3 * height) / (width * width)) * (2 * x - 1);
  const bb = ((2 * height) / width) * (2 - 3 * x);
  const sq = Math.sqrt(Math.max(bb * bb + 4 * aa * offset, 0));
  const t = bb > 0 ? (2 * offset) / (bb + sq) : (sq - bb) / (2 * aa);
  return scaling * (from + t);
}

// ---- Draws certain to do no damage.

/** Runs shorter than this take every draw through the tables (the bounds cost about as much as they save). */
const BOUND_FROM: i32 = 32;
/** Below the first bin's cdf by this much, a lookup cannot round up past it (a few ulps of 1 at most). */
const MARGIN: f64 = 1e-12;
// The middle of gulmc's ppf table (draws there are truncated to an entry): entries K_LOW .. K_HIGH.
const K_LOW: f64 = Math.trunc((TAIL - X_MIN) * INV_FACTOR);
const K_HIGH: f64 = Math.trunc((UPPER_TAIL - X_MIN) * INV_FACTOR);
// The correlation of the run's bound (sameDraws): group, sqrt(rho), sqrt(1 - rho), vulnerability.
let boundGroup: i32 = 0;
let boundRho: f64 = 0;
let boundRest: f64 = 0;
let boundVuln: i32 = 0;

/** Whether position p draws as the bound's position `at` does (same correlation group, rho and vulnerability). */
@inline function sameDraws(p: i32, at: i32): bool {
  const pi = <usize>p << 2;
  return load<i32>(pCorr + pi) == boundGroup && load<i32>(pVuln + pi) == boundVuln && load<f64>(pSqrtRho + (<usize>p << 3)) == boundRho && load<f64>(pSqrtRest + (<usize>p << 3)) == boundRest;
}

/**
 * The largest cdf-table entry L such that a lookup whose lower entry is at most L gives less than c
 * (t[L + 1] + MARGIN < c: the interpolation stays below its upper entry but for rounding), -1 when
 * none. The table's entries ascend (the normal cdf at points 4e-5 apart).
 */
function entryBelow(c: f64): i32 {
  if (!(cdfAt(1) + MARGIN < c)) return -1;
  let lo = 0; // holds
  let hi = NORM_N - 2; // tested below
  if (cdfAt(hi + 1) + MARGIN < c) return hi;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (cdfAt(mid + 1) + MARGIN < c) lo = mid;
    else hi = mid;
  }
  return lo;
}

/**
 * For a run on one intensity bin whose first damage bin has zero width (a draw there does no damage,
 * whatever its value), per sample s into runK[s]: the largest middle ppf entry k such that a correlated
 * draw truncated to k (z = x + b * ppf entry k, x and b those of the run's first correlated position)
 * looks up the cdf table at an entry below entryBelow(first bin's cdf) and so lands in the first bin.
 * Every step from k to that entry (ppf entry, times b, plus x, minus, times, floor) is a rounding of an
 * ascending function, so the entry ascends with k and a bisection finds the bound exactly; a draw with a
 * smaller truncated entry, and the same correlation and vulnerability (sameDraws), needs no lookup.
 * Answers the position the bound is for, or -1 when there is none to use.
 */
function noDamageBound(first: i32, end: i32, nHaz: i32, bin: i32): i32 {
  if (nHaz != 1 || end - first < BOUND_FROM) return -1;
  if (fround(<f64>load<f32>(binTo) - <f64>load<f32>(binFrom)) != 0) return -1;
  let at = first;
  while (at < end && load<u8>(runC + <usize>((at - first) * S)) == 0) at++;
  if (at == end) return -1;
  const vuln = load<i32>(pVuln + (<usize>at << 2));
  const key = <usize>(vuln * intensityBins + bin) << 2;
  const nb = load<i32>(cdfLength + key);
  if (nb < 2) return -1;
  let top = load<i32>(cdfBelow + key);
  if (top == -2) {
    top = entryBelow(<f64>load<f32>(cdfArena + (<usize>load<i32>(cdfStart + key) << 2)));
    store<i32>(cdfBelow + key, top);
  }
  if (top < 0) return -1;
  boundGroup = load<i32>(pCorr + (<usize>at << 2));
  boundVuln = vuln;
  boundRho = load<f64>(pSqrtRho + (<usize>at << 3));
  boundRest = load<f64>(pSqrtRest + (<usize>at << 3));
  const j = <usize>((at - first) * S);
  for (let s = 0; s < S; s++) {
    const x = load<f64>(runX + ((j + <usize>s) << 3));
    const b = boundRest;
    // The bound: the largest k in K_LOW .. K_HIGH with lower(k) <= top (K_LOW - 1 when none).
    let lo = K_LOW - 1;
    let hi = K_HIGH + 1;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      const z = x + b * ppfEntry(<i32>mid);
      if (Math.floor((z - CDF_MIN) * NORM_FACTOR) <= <f64>top) lo = mid;
      else hi = mid;
    }
    store<i32>(runK + (<usize>s << 2), <i32>lo);
  }
  return at;
}

/**
 * sample.ts EventSampler.sampleRun: the items at positions first .. end - 1, on an areaperil whose
 * footprint has nHaz intensity bins (hazCdf and hazBin filled by the host when nHaz > 1, else the one
 * bin `bin0`), in three passes.
 */
export function sampleRun(first: i32, end: i32, nHaz: i32, bin0: i32): void {
  if (drawRun(first, end, nHaz, bin0) > 0) correlateRun(first, end, nHaz, bin0);
  lossRun(first, end);
}

/** Pass 1, the draws: per position and sample, its uniform, intensity bin and the correlation's terms. Answers how many positions are correlated. */
function drawRun(first: i32, end: i32, nHaz: i32, bin0: i32): i32 {
  let correlated = 0;
  for (let p = first, j = 0; p < end; p++, j += S) {
    const pi = <usize>p << 2;
    const baseAt = groupAt(damageValues, damageStamp, load<i32>(pDamage + pi), load<i32>(pDamageTerm + pi), damageEventTerm, DAMAGE_M);
    const cg = load<i32>(pCorr + pi);
    const jf = <usize>j << 3;
    if (cg >= 0) {
      const normAt = correlationAt(cg, load<i32>(pCorrTerm + pi));
      const sqrtRho = load<f64>(pSqrtRho + (<usize>p << 3));
      const sqrtRest = load<f64>(pSqrtRest + (<usize>p << 3));
      for (let s = 0; s < S; s++) {
        store<f64>(runX + jf + (<usize>s << 3), sqrtRho * load<f64>(normAt + (<usize>s << 3)));
        store<f64>(runB + jf + (<usize>s << 3), sqrtRest);
      }
      store<u8>(runC + <usize>j, 1);
      correlated++;
    } else store<u8>(runC + <usize>j, 0);
    let hazAt: usize = 0;
    if (nHaz > 1) hazAt = groupAt(hazardValues, hazardStamp, load<i32>(pHazard + pi), load<i32>(pHazardTerm + pi), hazardEventTerm, HAZARD_M);
    for (let s = 0; s < S; s++) {
      const js = <usize>(j + s);
      store<f64>(runU + (js << 3), load<f64>(baseAt + (<usize>s << 3)));
      const bin = nHaz > 1 ? load<i32>(hazBin + (<usize>binarySearch(load<f64>(hazAt + (<usize>s << 3)), hazCdf, nHaz - 1) << 2)) : bin0;
      store<i32>(runBin + (js << 2), bin);
    }
  }
  return correlated;
}

/**
 * Pass 2, gulmc's get_corr_rval: the draws to correlate listed (runList), then two loops over them, z
 * (into runX), then back through the cdf table, a loop of lookups alone whose cache misses the processor
 * overlaps. A draw certain to land in a first damage bin of zero width (noDamageBound) is left out of
 * the list and marked -1, which pass 3 finds in bin 0 as well; the list is made without a branch on the
 * draws, which fall on either side at random.
 */
function correlateRun(first: i32, end: i32, nHaz: i32, bin0: i32): void {
  const skip = noDamageBound(first, end, nHaz, bin0);
  let listed = 0;
  for (let p = first, j = 0; p < end; p++, j += S) {
    if (load<u8>(runC + <usize>j) == 0) continue;
    const same = skip >= 0 && sameDraws(p, skip);
    for (let s = 0; s < S; s++) {
      const js = j + s;
      const at = <usize>js << 3;
      const u = load<f64>(runU + at);
      const none = same && u >= TAIL && u <= UPPER_TAIL && Math.trunc((u - X_MIN) * INV_FACTOR) <= <f64>load<i32>(runK + (<usize>s << 2));
      store<f64>(runU + at, select<f64>(-1, u, none));
      store<i32>(runList + (<usize>listed << 2), js);
      listed += i32(!none);
    }
  }
  for (let k = 0; k < listed; k++) {
    const at = <usize>load<i32>(runList + (<usize>k << 2)) << 3;
    store<f64>(runX + at, load<f64>(runX + at) + load<f64>(runB + at) * toNorm(load<f64>(runU + at)));
  }
  for (let k = 0; k < listed; k++) {
    const at = <usize>load<i32>(runList + (<usize>k << 2)) << 3;
    store<f64>(runU + at, fromNorm(load<f64>(runX + at)));
  }
}

/**
 * Pass 3, the losses: the damage bin of each uniform, the loss interpolated within it. The items of a
 * run mostly share their damage cdf, so the last one's is kept at hand; a draw marked -1 by pass 2 is
 * in the first bin, of zero width, where the loss does not depend on the draw (getGul's first return).
 */
function lossRun(first: i32, end: i32): void {
  let lastKey: i32 = -1;
  let nb = 0;
  let cdf: usize = 0;
  let relative = false;
  const firstBinTo: f64 = <f64>load<f32>(binTo);
  for (let p = first, j = 0; p < end; p++, j += S) {
    const pi = <usize>p << 2;
    const i = load<i32>(pItem + pi);
    const vuln = load<i32>(pVuln + pi);
    for (let s = 0; s < S; s++) {
      const js = <usize>(j + s);
      const key = vuln * intensityBins + load<i32>(runBin + (js << 2));
      if (key != lastKey) {
        lastKey = key;
        nb = load<i32>(cdfLength + (<usize>key << 2));
        cdf = cdfArena + (<usize>load<i32>(cdfStart + (<usize>key << 2)) << 2);
        // A relative damage function scales by the TIV; an absolute one (last bin_to > 1) is the loss itself.
        relative = nb > 0 && <f64>load<f32>(binTo + (<usize>(nb - 1) << 2)) <= 1;
      }
      if (nb == 0) continue;
      const rval = load<f64>(runU + (js << 3));
      const scaling = relative ? <f64>load<f32>(pTiv + pi) : 1.0;
      let gul: f64;
      if (rval < 0) gul = scaling * firstBinTo;
      else {
        const idx = binarySearch(rval, cdf, nb - 1);
        const ix = <usize>idx << 2;
        const probFrom = idx > 0 ? <f64>load<f32>(cdf + ix - 4) : 0.0;
        gul = getGul(<f64>load<f32>(binFrom + ix), <f64>load<f32>(binTo + ix), <f64>load<f32>(binMean + ix), probFrom, <f64>load<f32>(cdf + ix), rval, scaling);
      }
      store<f64>(out + ((<usize>s * <usize>n + <usize>i) << 3), gul >= 0 ? fround(gul) : 0.0);
    }
  }
}

// ---- For the tests (wasm/kernel-module.test.ts): the pieces above against their JavaScript references.

/** The S draws of a seed (rng.ts draws) into `to`. */
export function drawSeed(seed: f64, to: usize): void {
  latinHypercube(<i64>seed, to);
}

export function toNormOf(u: f64): f64 {
  return toNorm(u);
}

export function fromNormOf(z: f64): f64 {
  return fromNorm(z);
}
