/**
 * Sampled ground-up losses, as gulmc draws them (full Monte Carlo): per item and sample, a hazard
 * intensity bin from the footprint's distribution (only when it has more than one bin), then a
 * damage ratio from the vulnerability cdf at the uniform draw, interpolated within the damage bin
 * (pytools gul/core.py get_gul). The damage draw is correlated within a peril correlation group:
 * z = sqrt(rho) * group draw + sqrt(1 - rho) * item draw, through gulmc's normal lookup tables.
 * Probabilities and losses are float32 in Oasis, so they are rounded to float32 where it stores them.
 *
 * Speed (the numbers do not depend on it): an event is sampled in two passes. The first walks the
 * footprint and draws, per item and sample, the uniform and the intensity bin; the second turns them
 * into losses. With many items the second pass visits the correlated draws in order of their uniform
 * (a counting sort into buckets), so the lookups into gulmc's million-entry normal tables walk those
 * tables instead of jumping across 16 MB for every item. Every draw is a pure function of its group
 * and the event, every table entry of its index, so the order changes no number.
 */
import { fromNorm, toNorm } from './normal.js';
import { correlationSeed, damageSeed, draws, hazardSeed } from './rng.js';
import type { Footprint, Items } from './types.js';

const f32 = Math.fround;
/** gulmc stops a cdf once it reaches this (float32 1 - 6e-8). */
const CDF_END = 0.99999994;
/** Below this many draws in an event the second pass runs in item order (sorting would cost more than it saves). */
const SORT_FROM = 16384;
/** Buckets of the counting sort over the uniform draws: each spans about 250 entries (2 KB) of a normal table. */
const BUCKETS = 4096;

export interface Correlations {
  group: Int32Array;
  damageRho: Float64Array;
  hazardGroup: Float64Array;
}

export interface SampleContext {
  items: Items;
  tiv: Float64Array;
  footprint: Footprint;
  /** vulnerability_id -> dense float32 probabilities [intensity bin * nDamage + damage bin index]. */
  vulnProbs: Map<number, Float32Array>;
  nDamage: number;
  binFrom: Float32Array;
  binTo: Float32Array;
  binMean: Float32Array;
  correlations?: Correlations;
  samples: number;
  itemsByAreaperil: Map<number, number[]>;
}

function binarySearch(value: number, a: Float32Array, n: number): number {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** get_gul (oasislmf 2.5): linear interpolation in the bin when its mean is its midpoint, quadratic otherwise. */
function getGul(from: number, to: number, mean: number, probFrom: number, probTo: number, rval: number, scaling: number): number {
  const width = f32(to - from);
  if (width === 0) return scaling * to;
  const height = probTo - probFrom;
  const offset = rval - probFrom;
  const x = f32(f32(mean - from) / width);
  if (Math.abs(x - 0.5) <= 5e-6) return scaling * (from + (offset * width) / height);
  const aa = ((3 * height) / (width * width)) * (2 * x - 1);
  const bb = ((2 * height) / width) * (2 - 3 * x);
  const sq = Math.sqrt(Math.max(bb * bb + 4 * aa * offset, 0));
  const t = bb > 0 ? (2 * offset) / (bb + sq) : (sq - bb) / (2 * aa);
  return scaling * (from + t);
}

/** Dense indices 0..count-1 of a column's distinct values, in order of first appearance. */
function dense(values: ArrayLike<number>): { index: Int32Array; count: number } {
  const seen = new Map<number, number>();
  const index = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    let k = seen.get(values[i]);
    if (k === undefined) seen.set(values[i], (k = seen.size));
    index[i] = k;
  }
  return { index, count: seen.size };
}

type SeedOf = (key: number, eventId: number) => number;

/**
 * The draws of one kind (damage, correlation, hazard) for one event: S values per group in one array
 * indexed by the group's dense index, and the event (epoch) each slot was drawn for, so no map is read
 * and nothing is allocated per item; each group is still drawn once per event from its own seed.
 */
class GroupDraws {
  readonly values: Float64Array;
  /** With `withNorm`: ppf of each value (gulmc's table lookup), for the correlation groups' shared draws. */
  readonly norm: Float64Array;
  private readonly stamp: Int32Array;
  constructor(
    readonly index: Int32Array,
    count: number,
    private readonly S: number,
    private readonly seedOf: SeedOf,
    withNorm = false,
  ) {
    this.values = new Float64Array(count * S);
    this.norm = new Float64Array(withNorm ? count * S : 0);
    this.stamp = new Int32Array(count).fill(-1);
  }
  /** Offset in `values` of item i's group draws for this epoch; the seed is only computed on the group's first item. */
  at(i: number, epoch: number, key: number, eventId: number): number {
    const g = this.index[i];
    const at = g * this.S;
    if (this.stamp[g] !== epoch) {
      draws(this.seedOf(key, eventId), this.S, this.values, at);
      if (this.norm.length > 0) for (let s = 0; s < this.S; s++) this.norm[at + s] = toNorm(this.values[at + s]);
      this.stamp[g] = epoch;
    }
    return at;
  }
}

/** The array, or a larger copy of it when it holds fewer than n values (never shrunk). */
function grow<T extends Float32Array | Float64Array | Int32Array>(a: T, n: number, make: (size: number) => T): T {
  if (a.length >= n) return a;
  const b = make(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}
const grow32 = (a: Float32Array, n: number) => grow(a, n, (k) => new Float32Array(k));
const grow64 = (a: Float64Array, n: number) => grow(a, n, (k) => new Float64Array(k));
const growI32 = (a: Int32Array, n: number) => grow(a, n, (k) => new Int32Array(k));

/**
 * Samples events one after another; holds the per-item constants, the draws of the current event and
 * every scratch array, so the hot loops allocate nothing.
 */
export class EventSampler {
  private readonly S: number;
  private readonly n: number;
  private readonly damage: GroupDraws;
  private readonly correlation?: GroupDraws;
  private readonly hazard: GroupDraws;
  /** Per item: float32 TIV, sqrt(rho), sqrt(1 - rho), dense vulnerability index. */
  private readonly tivF32: Float32Array;
  private readonly sqrtRho: Float64Array;
  private readonly sqrtRest: Float64Array;
  private readonly vulnIndex: Int32Array;
  private readonly vulnIds: number[];
  private readonly maxIntensity: number;
  /** (dense vulnerability, intensity bin) -> damage cdf, filled as events need them. */
  private readonly cdfs: (Float32Array | undefined)[];
  private epoch = 0;
  // Per draw (slot * S + s) of the current event.
  private slotOf: Int32Array;
  private slotEpoch: Int32Array;
  private slotItem: Int32Array;
  private slotShared: Int32Array;
  private drawU: Float64Array;
  private drawBin: Int32Array;
  private order: Int32Array;
  private readonly bucketStart = new Int32Array(BUCKETS + 1);
  private hazCdf: Float32Array = new Float32Array(16);

  constructor(private readonly ctx: SampleContext) {
    const S = (this.S = ctx.samples);
    const items = ctx.items;
    const n = (this.n = items.itemId.length);
    const g = dense(items.groupId);
    const corr = ctx.correlations;
    const c = corr ? dense(corr.group) : undefined;
    const h = dense(corr ? corr.hazardGroup : items.groupId);
    this.damage = new GroupDraws(g.index, g.count, S, damageSeed);
    this.correlation = c && new GroupDraws(c.index, c.count, S, correlationSeed, true);
    this.hazard = new GroupDraws(h.index, h.count, S, hazardSeed);
    this.tivF32 = new Float32Array(n);
    this.sqrtRho = new Float64Array(n);
    this.sqrtRest = new Float64Array(n);
    this.vulnIndex = new Int32Array(n);
    const vulnDense = new Map<number, number>();
    this.vulnIds = [];
    for (let i = 0; i < n; i++) {
      this.tivF32[i] = f32(ctx.tiv[items.coverageId[i]]);
      const rho = corr ? corr.damageRho[i] : 0;
      this.sqrtRho[i] = Math.sqrt(rho);
      this.sqrtRest[i] = Math.sqrt(1 - rho);
      const v = items.vulnerability[i];
      let d = vulnDense.get(v);
      if (d === undefined) {
        vulnDense.set(v, (d = vulnDense.size));
        this.vulnIds.push(v);
      }
      this.vulnIndex[i] = d;
    }
    let maxIntensity = 0;
    for (let r = 0; r < ctx.footprint.intensityBin.length; r++) maxIntensity = Math.max(maxIntensity, ctx.footprint.intensityBin[r]);
    this.maxIntensity = maxIntensity;
    this.cdfs = new Array((maxIntensity + 1) * this.vulnIds.length);
    this.slotOf = new Int32Array(n);
    this.slotEpoch = new Int32Array(n).fill(-1);
    this.slotItem = new Int32Array(1024);
    this.slotShared = new Int32Array(1024);
    this.drawU = new Float64Array(1024 * S);
    this.drawBin = new Int32Array(1024 * S);
    this.order = new Int32Array(1024 * S);
  }

  private cdf(vuln: number, ibin: number): Float32Array {
    const key = vuln * (this.maxIntensity + 1) + ibin;
    const hit = this.cdfs[key];
    if (hit) return hit;
    const ctx = this.ctx;
    const probs = ctx.vulnProbs.get(this.vulnIds[vuln]);
    const out: number[] = [];
    let cum = 0;
    for (let d = 0; d < ctx.nDamage; d++) {
      cum += probs ? probs[ibin * ctx.nDamage + d] : 0;
      out.push(cum);
      if (cum >= CDF_END) break;
    }
    const cdf = Float32Array.from(out);
    this.cdfs[key] = cdf;
    return cdf;
  }

  /**
   * Writes the event's sampled loss per item, before gul_alloc_rule, into `out` (samples x items,
   * row-major by sample) for the items on an areaperil of the event's footprint. Entries of other items
   * are left as they are: the caller keeps them 0.
   */
  sampleEvent(eventId: number, out: Float64Array): void {
    const ctx = this.ctx;
    const range = ctx.footprint.byEvent.get(eventId);
    if (!range) return;
    const S = this.S;
    const fp = ctx.footprint;
    const corr = ctx.correlations;
    const epoch = ++this.epoch;
    let slots = 0;
    // Pass 1: per item and sample, the uniform and the intensity bin.
    let r = range[0];
    while (r < range[1]) {
      const ap = fp.areaperil[r];
      let end = r + 1;
      while (end < range[1] && fp.areaperil[end] === ap) end++;
      const list = ctx.itemsByAreaperil.get(ap);
      if (list) {
        const nHaz = end - r;
        const hazCdf = (this.hazCdf = grow32(this.hazCdf, nHaz));
        let cum = 0;
        for (let h = 0; h < nHaz; h++) hazCdf[h] = cum += f32(fp.prob[r + h]);
        if (slots + list.length > this.slotItem.length) this.reserve(slots + list.length);
        for (let k = 0; k < list.length; k++) {
          const i = list[k];
          let slot: number;
          if (this.slotEpoch[i] === epoch) slot = this.slotOf[i];
          else {
            slot = slots++;
            this.slotEpoch[i] = epoch;
            this.slotOf[i] = slot;
            this.slotItem[slot] = i;
          }
          this.drawItem(i, slot, eventId, epoch, r, nHaz, hazCdf, corr);
        }
      }
      r = end;
    }
    // Pass 2: the losses.
    const draws = slots * S;
    if (draws >= SORT_FROM && this.correlation) {
      const order = this.sortByUniform(draws);
      for (let k = 0; k < draws; k++) this.loss(order[k], out);
    } else {
      for (let d = 0; d < draws; d++) this.loss(d, out);
    }
  }

  private reserve(slots: number): void {
    const S = this.S;
    this.slotItem = growI32(this.slotItem, slots);
    this.slotShared = growI32(this.slotShared, slots);
    this.drawU = grow64(this.drawU, slots * S);
    this.drawBin = growI32(this.drawBin, slots * S);
    this.order = growI32(this.order, slots * S);
  }

  private drawItem(i: number, slot: number, eventId: number, epoch: number, row: number, nHaz: number, hazCdf: Float32Array, corr: Correlations | undefined): void {
    const S = this.S;
    const items = this.ctx.items;
    const groupId = items.groupId[i];
    const baseAt = this.damage.at(i, epoch, groupId, eventId);
    const base = this.damage.values;
    this.slotShared[slot] = corr && this.correlation && corr.damageRho[i] > 0 ? this.correlation.at(i, epoch, corr.group[i], eventId) : -1;
    const hazAt = nHaz > 1 ? this.hazard.at(i, epoch, corr ? corr.hazardGroup[i] : groupId, eventId) : -1;
    const haz = this.hazard.values;
    const bins = this.ctx.footprint.intensityBin;
    const at = slot * S;
    for (let s = 0; s < S; s++) {
      this.drawU[at + s] = base[baseAt + s];
      this.drawBin[at + s] = bins[row + (hazAt >= 0 ? binarySearch(haz[hazAt + s], hazCdf, nHaz - 1) : 0)];
    }
  }

  /** The draws 0..count-1 by bucket of their uniform (stable: in draw order within a bucket). */
  private sortByUniform(count: number): Int32Array {
    const start = this.bucketStart;
    start.fill(0);
    const u = this.drawU;
    for (let d = 0; d < count; d++) start[Math.min((u[d] * BUCKETS) | 0, BUCKETS - 1) + 1]++;
    for (let b = 0; b < BUCKETS; b++) start[b + 1] += start[b];
    const order = this.order;
    for (let d = 0; d < count; d++) order[start[Math.min((u[d] * BUCKETS) | 0, BUCKETS - 1)]++] = d;
    return order;
  }

  private loss(d: number, out: Float64Array): void {
    const S = this.S;
    const slot = S === 1 ? d : Math.floor(d / S);
    const s = d - slot * S;
    const i = this.slotItem[slot];
    const cdf = this.cdf(this.vulnIndex[i], this.drawBin[d]);
    const nb = cdf.length;
    if (nb === 0) return;
    const sharedAt = this.slotShared[slot];
    const y = this.drawU[d];
    // gulmc's get_corr_rval: z = sqrt(rho) * ppf(group draw) + sqrt(1 - rho) * ppf(item draw), back through the cdf.
    const rval = sharedAt >= 0 ? fromNorm(this.sqrtRho[i] * this.correlation!.norm[sharedAt + s] + this.sqrtRest[i] * toNorm(y)) : y;
    // The last bin takes any draw past the others (search over nb - 1 entries, as gulmc).
    const idx = binarySearch(rval, cdf, nb - 1);
    const ctx = this.ctx;
    // A relative damage function scales by the TIV; an absolute one (last bin_to > 1) is the loss itself.
    const scaling = ctx.binTo[nb - 1] <= 1 ? this.tivF32[i] : 1;
    const gul = getGul(ctx.binFrom[idx], ctx.binTo[idx], ctx.binMean[idx], idx > 0 ? cdf[idx - 1] : 0, cdf[idx], rval, scaling);
    out[s * this.n + i] = gul >= 0 ? f32(gul) : 0;
  }
}
