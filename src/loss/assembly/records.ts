// AssemblyScript (see index.ts). The sums of one event over the items it reaches, as kernel.ts
// recordsFused documents them: sum each coverage, then cap the mean, the
// maximum and each sample at the coverage's TIV (gul_alloc_rule 1; gul.ts capAtTiv does the same for
// the mean and maximum on the reference path), add up the event's totals and add every loss vector
// (mean, max, exposure, each sample) into level 1 of the financial module. Every sum runs in item
// order, as the reference records() path adds the same terms, so the same bits.

import { S } from './positions';
import { forgetReached, reachedCount, reachedItems } from './gul';

// Per item: coverage (i32), item id (i32), the event's mean and maximum (f64), hit (u8), sampled losses
// (f64, items x samples). Per coverage: TIV (f64), seen (u8), hit items (f64), each sample's sum (f64).
let cov: usize = 0;
let ids: usize = 0;
let mean: usize = 0;
let max: usize = 0;
let hit: usize = 0;
let sampled: usize = 0;
let tiv: usize = 0;
let seen: usize = 0;
let hits: usize = 0;
let covSamples: usize = 0;
let covMean: usize = 0;
let covMax: usize = 0;
// Level 1 of the financial module: to_agg_id by item id (i32, `aggFrom` of them), then per agg_id (`aggSize`
// of them) its 3 + S loss vectors side by side (mean, max, exposure, the samples): an item's sums land
// on one or two cache lines, and the financial module reads a node's vectors in one piece.
let toAgg: usize = 0;
let aggFrom: i32 = 0;
let aggBuffers: usize = 0;
let aggSize: i32 = 0;
// The event's sample sums (S f64) and totals: mean, max, exposed TIV, affected coverages (4 f64).
let sums: usize = 0;
let totals: usize = 0;

export function setupRecords(itemCov: usize, itemIds: usize, itemMean: usize, itemMax: usize, itemHit: usize, losses: usize, covTiv: usize, covSeen: usize, covHits: usize, covSums: usize, sumMean: usize, sumMax: usize, levelOne: usize, levelOneFrom: i32, buffers: usize, bufferSize: i32, sampleSums: usize, eventTotals: usize): void {
  cov = itemCov; ids = itemIds; mean = itemMean; max = itemMax; hit = itemHit; sampled = losses;
  tiv = covTiv; seen = covSeen; hits = covHits; covSamples = covSums; covMean = sumMean; covMax = sumMax;
  toAgg = levelOne; aggFrom = levelOneFrom; aggBuffers = buffers; aggSize = bufferSize;
  sums = sampleSums; totals = eventTotals;
}

@inline function itemAt(k: i32): usize {
  return <usize>load<i32>(reachedItems() + (<usize>k << 2));
}

@inline function coverageOf(i: usize): usize {
  return <usize>load<i32>(cov + (i << 2));
}

@inline function sampleAt(s: i32, i: usize): usize {
  return sampled + ((i * <usize>S + <usize>s) << 3);
}

/** Per coverage: its hit items and (rule 1) the sums of their means, maxima and each sample's losses. */
export function sumCoverages(rule1: i32): void {
  const count = reachedCount();
  const SC = rule1 ? S : 0;
  for (let k = 0; k < count; k++) {
    const i = itemAt(k);
    const c = coverageOf(i);
    if (load<u8>(hit + i)) store<f64>(hits + (c << 3), load<f64>(hits + (c << 3)) + 1);
    if (rule1) {
      store<f64>(covMean + (c << 3), load<f64>(covMean + (c << 3)) + load<f64>(mean + (i << 3)));
      store<f64>(covMax + (c << 3), load<f64>(covMax + (c << 3)) + load<f64>(max + (i << 3)));
    }
    for (let s = 0; s < SC; s++) {
      const at = covSamples + ((c * <usize>SC + <usize>s) << 3);
      store<f64>(at, load<f64>(at) + load<f64>(sampleAt(s, i)));
    }
  }
}

/**
 * Caps each sample at its coverage's TIV (rule1), adds up the event's sums and totals and, with fm, each
 * loss vector into level 1's buffers (the caller zeroes them first). The sums and totals start from zero,
 * or, with `carried`, from what the host put in them (the sums of the items before these: a book run in
 * chunks carries them from chunk to chunk).
 */
export function addUp(rule1: i32, fm: i32, carried: i32): void {
  const count = reachedCount();
  let meanSum = carried ? load<f64>(totals) : 0.0;
  let maxSum = carried ? load<f64>(totals + 8) : 0.0;
  let exposed = carried ? load<f64>(totals + 16) : 0.0;
  let affected = carried ? load<f64>(totals + 24) : 0.0;
  if (!carried) for (let s = 0; s < S; s++) store<f64>(sums + (<usize>s << 3), 0);
  for (let k = 0; k < count; k++) {
    const i = itemAt(k);
    const c = coverageOf(i);
    const t = load<f64>(tiv + (c << 3));
    if (rule1) {
      for (let s = 0; s < S; s++) {
        const sum = load<f64>(covSamples + ((c * <usize>S + <usize>s) << 3));
        const at = sampleAt(s, i);
        if (sum > t) store<f64>(at, load<f64>(at) * (t / sum));
      }
    }
    for (let s = 0; s < S; s++) {
      const at = sums + (<usize>s << 3);
      store<f64>(at, load<f64>(at) + load<f64>(sampleAt(s, i)));
    }
    if (!load<u8>(hit + i)) continue;
    let m = load<f64>(mean + (i << 3));
    let x = load<f64>(max + (i << 3));
    if (rule1) {
      const sm = load<f64>(covMean + (c << 3));
      if (sm > t) m *= t / sm;
      const sx = load<f64>(covMax + (c << 3));
      if (sx > t) x *= t / sx;
    }
    meanSum += m;
    maxSum += x;
    // gulmc's TIV record per item: the coverage TIV shared by the items the event reaches on it.
    const exposure = rule1 ? t / load<f64>(hits + (c << 3)) : t;
    if (!load<u8>(seen + c)) {
      store<u8>(seen + c, 1);
      exposed += t;
      affected += 1;
    }
    const from = load<i32>(ids + (i << 2));
    if (fm && from >= 1 && from < aggFrom) {
      const a = load<i32>(toAgg + (<usize>from << 2));
      if (a > 0) {
        let at = aggBuffers + ((<usize>a * <usize>(3 + S)) << 3);
        store<f64>(at, load<f64>(at) + m);
        store<f64>(at + 8, load<f64>(at + 8) + x);
        store<f64>(at + 16, load<f64>(at + 16) + exposure);
        at += 24;
        for (let s = 0; s < S; s++) {
          store<f64>(at, load<f64>(at) + load<f64>(sampleAt(s, i)));
          at += 8;
        }
      }
    }
  }
  store<f64>(totals, meanSum);
  store<f64>(totals + 8, maxSum);
  store<f64>(totals + 16, exposed);
  store<f64>(totals + 24, affected);
}

/**
 * Back to zeros, for the items the event reached, their mean, maximum, hit mark and sampled losses and
 * their coverages' sums (those of the fused passes with rule1: the arrays start at zero and each event
 * leaves them so, which saves a pass zeroing them first), and no item reached.
 */
export function clearEvent(rule1: i32): void {
  const count = reachedCount();
  const SC = rule1 ? S : 0;
  for (let k = 0; k < count; k++) {
    const i = itemAt(k);
    store<f64>(mean + (i << 3), 0);
    store<f64>(max + (i << 3), 0);
    store<u8>(hit + i, 0);
    for (let s = 0; s < S; s++) store<f64>(sampleAt(s, i), 0);
    const c = coverageOf(i);
    store<u8>(seen + c, 0);
    store<f64>(hits + (c << 3), 0);
    if (rule1) {
      store<f64>(covMean + (c << 3), 0);
      store<f64>(covMax + (c << 3), 0);
    }
    for (let s = 0; s < SC; s++) store<f64>(covSamples + ((c * <usize>SC + <usize>s) << 3), 0);
  }
  forgetReached();
}
