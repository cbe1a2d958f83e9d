// AssemblyScript (see index.ts). The sampled ground-up loss of an areaperil's items, as gulmc draws
// it and domain/sample.ts documents it:
//  1. each group's draws for the event (Latin hypercube on Philox4x32-7, seeded by group and event:
//     philox.ts);
//  2. the correlated uniform, z = sqrt(rho) * ppf(group draw) + sqrt(1 - rho) * ppf(item draw), back
//     through gulmc's normal tables (normal.ts);
//  3. the damage bin by binary search of the float32 cdf, the loss interpolated within the bin.

import { pItem, S } from './positions';
import { latinHypercube, setupStrata } from './philox';
import { CDF_MIN, INV_FACTOR, NORM_FACTOR, NORM_N, TAIL, UPPER_TAIL, X_MIN, cdfAt, fromNorm, ppfEntry, setupCdfTable, toNorm } from './normal';

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
// The losses, items x samples: an item's samples side by side (f64); the host reads them.
let out: usize = 0;
// Scratch of one run, per draw: the uniform, the correlation's two terms, the intensity bin, correlated or not.
let runU: usize = 0;
let runX: usize = 0;
let runB: usize = 0;
let runBin: usize = 0; // i32
let runC: usize = 0; // u8
let runList: usize = 0; // i32, the draws pass 2 correlates
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
  setupCdfTable(table); cdfStart = start; cdfLength = length; cdfArena = arena; intensityBins = bins;
  binFrom = from; binTo = to; binMean = mean;
  hazCdf = hCdf; hazBin = hBin; out = losses;
  runU = u; runX = x; runB = b; runBin = bin; runC = c; setupStrata(strata);
  runK = bounds; cdfBelow = below; runList = list;
}

/** Draws from now on are for this event (its seed terms, computed by the host as rng.ts SeedHash.event). */
export function startEvent(e: i32, damageTerm: f64, corrTerm: f64, hazardTerm: f64): void {
  epoch = e;
  damageEventTerm = <i64>damageTerm;
  corrEventTerm = <i64>corrTerm;
  hazardEventTerm = <i64>hazardTerm;
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
        // Most draws of a light wind land in the first bin: one comparison instead of the search.
        const idx = nb > 1 && <f64>load<f32>(cdf) >= rval ? 0 : binarySearch(rval, cdf, nb - 1);
        const ix = <usize>idx << 2;
        const probFrom = idx > 0 ? <f64>load<f32>(cdf + ix - 4) : 0.0;
        gul = getGul(<f64>load<f32>(binFrom + ix), <f64>load<f32>(binTo + ix), <f64>load<f32>(binMean + ix), probFrom, <f64>load<f32>(cdf + ix), rval, scaling);
      }
      store<f64>(out + ((<usize>i * <usize>S + <usize>s) << 3), gul >= 0 ? fround(gul) : 0.0);
    }
  }
}
