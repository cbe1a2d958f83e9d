/**
 * Sampled ground-up losses, as gulmc draws them (full Monte Carlo): per item and sample, a hazard
 * intensity bin from the footprint's distribution (only when it has more than one bin), then a
 * damage ratio from the vulnerability cdf at the uniform draw, interpolated within the damage bin
 * (pytools gul/core.py get_gul). The damage draw is correlated within a peril correlation group:
 * z = sqrt(rho) * group draw + sqrt(1 - rho) * item draw, through gulmc's normal lookup tables.
 * Probabilities and losses are float32 in Oasis, so they are rounded to float32 where it stores them.
 */
import { correlatedUniform } from './normal.js';
import { correlationSeed, damageSeed, draws, hazardSeed } from './rng.js';
import type { Footprint, Items } from './types.js';

const f32 = Math.fround;
/** gulmc stops a cdf once it reaches this (float32 1 - 6e-8). */
const CDF_END = 0.99999994;

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
  /** (vulnerability, intensity bin) -> damage cdf, filled as events need them. */
  cdfCache: Map<number, Float32Array>;
}

function vulnCdf(ctx: SampleContext, vuln: number, ibin: number): Float32Array {
  const key = vuln * 65536 + ibin;
  let cdf = ctx.cdfCache.get(key);
  if (cdf) return cdf;
  const probs = ctx.vulnProbs.get(vuln);
  const out: number[] = [];
  let cum = 0;
  for (let d = 0; d < ctx.nDamage; d++) {
    cum += probs ? probs[ibin * ctx.nDamage + d] : 0;
    out.push(cum);
    if (cum >= CDF_END) break;
  }
  cdf = Float32Array.from(out);
  ctx.cdfCache.set(key, cdf);
  return cdf;
}

function binarySearch(value: number, a: ArrayLike<number>, n: number): number {
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

/**
 * Fills `out` (samples x items, row-major by sample) with the event's sampled loss per item, before
 * gul_alloc_rule. Items the footprint does not reach stay 0.
 */
export function sampleEvent(ctx: SampleContext, eventId: number, out: Float64Array): void {
  out.fill(0);
  const range = ctx.footprint.byEvent.get(eventId);
  if (!range) return;
  const S = ctx.samples;
  const n = ctx.items.itemId.length;
  const fp = ctx.footprint;
  draws_.reset(S);
  let r = range[0];
  while (r < range[1]) {
    const ap = fp.areaperil[r];
    let end = r + 1;
    while (end < range[1] && fp.areaperil[end] === ap) end++;
    const list = ctx.itemsByAreaperil.get(ap);
    if (list) {
      const nHaz = end - r;
      const hazCdf = new Float32Array(nHaz);
      let cum = 0;
      for (let h = 0; h < nHaz; h++) hazCdf[h] = cum += f32(fp.prob[r + h]);
      for (const i of list) sampleItem(ctx, i, eventId, r, nHaz, hazCdf, out, n, S);
    }
    r = end;
  }
}

/**
 * The draws of one event, per (kind, group): one pooled Float64Array and a map from key to offset, reused
 * from event to event, so an input whose every item is its own group allocates nothing per item.
 */
class EventDraws {
  private pool = new Float64Array(0);
  private used = 0;
  private S = 0;
  private readonly scratch: Float64Array[] = [];
  readonly offsets = [new Map<number, number>(), new Map<number, number>(), new Map<number, number>()];
  reset(S: number): void {
    this.S = S;
    this.used = 0;
    for (const m of this.offsets) m.clear();
  }
  get data(): Float64Array {
    return this.pool;
  }
  /** Offset of the S draws of `key` (kind 0 damage, 1 correlation, 2 hazard), drawn from seed() once per event. */
  offset(kind: 0 | 1 | 2, key: number, seed: number): number {
    const m = this.offsets[kind];
    const hit = m.get(key);
    if (hit !== undefined) return hit;
    const S = this.S;
    if (this.used + S > this.pool.length) {
      const bigger = new Float64Array(Math.max(1024, (this.used + S) * 2));
      bigger.set(this.pool.subarray(0, this.used));
      this.pool = bigger;
    }
    const tmp = (this.scratch[S] ??= new Float64Array(S));
    draws(seed, S, tmp);
    this.pool.set(tmp, this.used);
    const at = this.used;
    this.used += S;
    m.set(key, at);
    return at;
  }
}
const draws_ = new EventDraws();

function sampleItem(ctx: SampleContext, i: number, eventId: number, row: number, nHaz: number, hazCdf: Float32Array, out: Float64Array, n: number, S: number): void {
  const items = ctx.items;
  const tiv = f32(ctx.tiv[items.coverageId[i]]);
  const groupId = items.groupId[i];
  const d = draws_;
  const seenBase = d.offsets[0].get(groupId);
  const baseAt = seenBase ?? d.offset(0, groupId, damageSeed(groupId, eventId));
  const corr = ctx.correlations;
  const rho = corr ? corr.damageRho[i] : 0;
  const pcg = corr ? corr.group[i] : 0;
  const sharedAt = rho > 0 ? (d.offsets[1].get(pcg) ?? d.offset(1, pcg, correlationSeed(pcg, eventId))) : -1;
  const hazGroup = corr ? corr.hazardGroup[i] : groupId;
  const hazAt = nHaz > 1 ? (d.offsets[2].get(hazGroup) ?? d.offset(2, hazGroup, hazardSeed(hazGroup, eventId))) : -1;
  // Read after every offset() call: the pool may have grown.
  const pool = d.data;
  for (let s = 0; s < S; s++) {
    let h = 0;
    if (hazAt >= 0) h = binarySearch(pool[hazAt + s], hazCdf, nHaz - 1);
    const ibin = ctx.footprint.intensityBin[row + h];
    const cdf = vulnCdf(ctx, items.vulnerability[i], ibin);
    const nb = cdf.length;
    if (nb === 0) continue;
    const rval = sharedAt >= 0 ? correlatedUniform(pool[sharedAt + s], pool[baseAt + s], rho) : pool[baseAt + s];
    // The last bin takes any draw past the others (search over nb - 1 entries, as gulmc).
    const idx = binarySearch(rval, cdf, nb - 1);
    // A relative damage function scales by the TIV; an absolute one (last bin_to > 1) is the loss itself.
    const scaling = ctx.binTo[nb - 1] <= 1 ? tiv : 1;
    const gul = getGul(ctx.binFrom[idx], ctx.binTo[idx], ctx.binMean[idx], idx > 0 ? cdf[idx - 1] : 0, cdf[idx], rval, scaling);
    out[s * n + i] = gul >= 0 ? f32(gul) : 0;
  }
}
