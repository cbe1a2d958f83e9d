// AssemblyScript (see index.ts). One event's ground-up mean and maximum per item, as domain/gul.ts
// documents them: each item reached adds its mean damage ratio * TIV and keeps its maximum (gulAt, the
// ratios the host's); the reached items are then listed in item order, and gul_alloc_rule 1 caps each
// coverage's items at its TIV. gulRow, per footprint row from moments per intensity bin, marks the items
// whose vulnerability has no distribution as reached.

import { n, pItem } from './positions';

// Per position: the coverage TIV (f64) and the index of the item's vulnerability moments (i32, -1 without).
let gTiv: usize = 0;
let gVuln: usize = 0;
// Moments per (vulnerability index, intensity bin): mean and maximum damage ratio (f64), 0 past the bins it has.
let meanOf: usize = 0;
let maxOf: usize = 0;
let momentBins: i32 = 0;
// Per item: the event's mean and maximum (f64), whether it is hit (u8); the reached items as a bit set
// (u32 words) and then as a list (i32), `count` of them.
let mean: usize = 0;
let max: usize = 0;
let hit: usize = 0;
let bits: usize = 0;
let reached: usize = 0;
let count: i32 = 0;
// Per item its coverage (i32); per coverage its TIV and the sums the cap compares with it (f64).
let cov: usize = 0;
let tiv: usize = 0;
let covMean: usize = 0;
let covMax: usize = 0;
// Per position the index of its vulnerability among the items' (i32); per such index the event's cut at
// the areaperil being computed, the host's: mean and maximum damage ratio (f64), 1 when it has a
// distribution (u8).
let cutOf: usize = 0;
let cutMean: usize = 0;
let cutMax: usize = 0;
let cutHas: usize = 0;

export function setupGul(tivs: usize, vulns: usize, means: usize, maxes: usize, bins: i32, itemMean: usize, itemMax: usize, itemHit: usize, reachedBits: usize, reachedList: usize, itemCov: usize, covTiv: usize, sumMean: usize, sumMax: usize): void {
  gTiv = tivs; gVuln = vulns; meanOf = means; maxOf = maxes; momentBins = bins;
  mean = itemMean; max = itemMax; hit = itemHit; bits = reachedBits; reached = reachedList;
  cov = itemCov; tiv = covTiv; covMean = sumMean; covMax = sumMax;
}

export function setupCuts(positionCut: usize, means: usize, maxes: usize, has: usize): void {
  cutOf = positionCut; cutMean = means; cutMax = maxes; cutHas = has;
}

/**
 * The items at positions first .. end - 1 whose vulnerability has a distribution, each with its
 * vulnerability's cut (gulAt, position by position). Answers 1 when there is one.
 */
export function gulCuts(first: i32, end: i32): i32 {
  let touched = 0;
  for (let p = first; p < end; p++) {
    const d = <usize>load<i32>(cutOf + (<usize>p << 2));
    if (load<u8>(cutHas + d) == 0) continue;
    touched = 1;
    gulAt(p, load<f64>(cutMean + (d << 3)), load<f64>(cutMax + (d << 3)));
  }
  return touched;
}

/** The reached items (item indices ascending, offset of `count` i32), for the records passes. */
export function reachedItems(): usize {
  return reached;
}

export function reachedCount(): i32 {
  return count;
}

/**
 * One footprint row: intensity bin ib with probability prob on the areaperil of positions first .. end - 1.
 * Answers 1 when it touches an item with a vulnerability.
 */
export function gulRow(first: i32, end: i32, ib: i32, prob: f64): i32 {
  let touched = 0;
  const inBins = ib >= 0 && ib < momentBins;
  for (let p = first; p < end; p++) {
    const i = load<i32>(pItem + (<usize>p << 2));
    const word = bits + (<usize>(i >>> 5) << 2);
    store<u32>(word, load<u32>(word) | (<u32>1 << (i & 31)));
    const v = load<i32>(gVuln + (<usize>p << 2));
    if (v < 0) continue;
    touched = 1;
    store<u8>(hit + <usize>i, 1);
    const t = load<f64>(gTiv + (<usize>p << 3));
    const m = inBins ? load<f64>(meanOf + ((<usize>v * <usize>momentBins + <usize>ib) << 3)) : 0.0;
    const at = mean + (<usize>i << 3);
    store<f64>(at, load<f64>(at) + prob * m * t);
    if (prob > 0) {
      const mx = (inBins ? load<f64>(maxOf + ((<usize>v * <usize>momentBins + <usize>ib) << 3)) : 0.0) * t;
      const mat = max + (<usize>i << 3);
      if (mx > load<f64>(mat)) store<f64>(mat, mx);
    }
  }
  return touched;
}

/**
 * One item, at position p, reached by the event with mean damage ratio m and maximum damage ratio mx (the
 * host's, from the item's effective damage cdf as domain/cdf-cutoff.ts cuts it): both times the TIV.
 */
export function gulAt(p: i32, m: f64, mx: f64): void {
  const i = load<i32>(pItem + (<usize>p << 2));
  const word = bits + (<usize>(i >>> 5) << 2);
  store<u32>(word, load<u32>(word) | (<u32>1 << (i & 31)));
  store<u8>(hit + <usize>i, 1);
  const t = load<f64>(gTiv + (<usize>p << 3));
  const at = mean + (<usize>i << 3);
  store<f64>(at, load<f64>(at) + m * t);
  const x = mx * t;
  const mat = max + (<usize>i << 3);
  if (x > load<f64>(mat)) store<f64>(mat, x);
}

/** The reached items, ascending, from the bit set (cleared on the way); their count. */
export function collect(): i32 {
  let k = 0;
  const words = (n + 31) >>> 5;
  for (let w = 0; w < words; w++) {
    const at = bits + (<usize>w << 2);
    let word = load<u32>(at);
    if (word == 0) continue;
    store<u32>(at, 0);
    while (word != 0) {
      store<i32>(reached + (<usize>k << 2), (w << 5) + <i32>ctz(word));
      k++;
      word &= word - 1;
    }
  }
  count = k;
  return k;
}

/** gul_alloc_rule 1 on the mean and the maximum: a coverage's items together never exceed its TIV. */
export function capAtTiv(): void {
  for (let k = 0; k < count; k++) {
    const c = <usize>load<i32>(cov + (<usize>load<i32>(reached + (<usize>k << 2)) << 2)) << 3;
    store<f64>(covMean + c, 0);
    store<f64>(covMax + c, 0);
  }
  for (let k = 0; k < count; k++) {
    const i = <usize>load<i32>(reached + (<usize>k << 2));
    const c = <usize>load<i32>(cov + (i << 2)) << 3;
    store<f64>(covMean + c, load<f64>(covMean + c) + load<f64>(mean + (i << 3)));
    store<f64>(covMax + c, load<f64>(covMax + c) + load<f64>(max + (i << 3)));
  }
  for (let k = 0; k < count; k++) {
    const i = <usize>load<i32>(reached + (<usize>k << 2));
    const c = <usize>load<i32>(cov + (i << 2)) << 3;
    const t = load<f64>(tiv + c);
    const sm = load<f64>(covMean + c);
    if (sm > t) store<f64>(mean + (i << 3), load<f64>(mean + (i << 3)) * (t / sm));
    const sx = load<f64>(covMax + c);
    if (sx > t) store<f64>(max + (i << 3), load<f64>(max + (i << 3)) * (t / sx));
  }
}

/** No item reached: the next event starts (records.ts clearEvent has put their values back to zeros). */
export function forgetReached(): void {
  count = 0;
}
