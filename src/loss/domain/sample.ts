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

// The last cdf looked up: consecutive items of one areaperil mostly share their vulnerability and bin.
let lastCtx: SampleContext | undefined;
let lastKey = -1;
let lastCdf: Float32Array = new Float32Array(0);

function vulnCdf(ctx: SampleContext, vuln: number, ibin: number): Float32Array {
  const key = vuln * 65536 + ibin;
  if (key === lastKey && ctx === lastCtx) return lastCdf;
  let cdf = ctx.cdfCache.get(key);
  if (cdf) {
    lastCtx = ctx;
    lastKey = key;
    return (lastCdf = cdf);
  }
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
  const st = drawState(ctx);
  st.epoch++;
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
      for (const i of list) sampleItem(ctx, st, i, eventId, r, nHaz, hazCdf, out, n, S);
    }
    r = end;
  }
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

/**
 * The draws of one kind (damage, correlation, hazard) for one event: S values per group in one array
 * indexed by the group's dense index, and the event (epoch) each slot was drawn for, so no map is read
 * and nothing is allocated per item; each group is still drawn once per event from its own seed.
 */
class GroupDraws {
  readonly values: Float64Array;
  private readonly stamp: Int32Array;
  private readonly tmp: Float64Array;
  constructor(readonly index: Int32Array, count: number, private readonly S: number) {
    this.values = new Float64Array(count * S);
    this.stamp = new Int32Array(count).fill(-1);
    this.tmp = new Float64Array(S);
  }
  /** Offset in `values` of item i's group draws for this epoch; seedOf(key) only runs on the group's first item. */
  at(i: number, epoch: number, key: number, eventId: number, seedOf: (key: number, eventId: number) => number): number {
    const g = this.index[i];
    const at = g * this.S;
    if (this.stamp[g] !== epoch) {
      draws(seedOf(key, eventId), this.S, this.tmp);
      this.values.set(this.tmp, at);
      this.stamp[g] = epoch;
    }
    return at;
  }
}

interface DrawState {
  damage: GroupDraws;
  correlation?: GroupDraws;
  hazard: GroupDraws;
  epoch: number;
}
const drawStates = new WeakMap<SampleContext, DrawState>();

function drawState(ctx: SampleContext): DrawState {
  let st = drawStates.get(ctx);
  if (!st) {
    const S = ctx.samples;
    const g = dense(ctx.items.groupId);
    const corr = ctx.correlations;
    const c = corr ? dense(corr.group) : undefined;
    const h = dense(corr ? corr.hazardGroup : ctx.items.groupId);
    st = { damage: new GroupDraws(g.index, g.count, S), correlation: c && new GroupDraws(c.index, c.count, S), hazard: new GroupDraws(h.index, h.count, S), epoch: 0 };
    drawStates.set(ctx, st);
  }
  return st;
}

function sampleItem(ctx: SampleContext, st: DrawState, i: number, eventId: number, row: number, nHaz: number, hazCdf: Float32Array, out: Float64Array, n: number, S: number): void {
  const items = ctx.items;
  const tiv = f32(ctx.tiv[items.coverageId[i]]);
  const groupId = items.groupId[i];
  const baseAt = st.damage.at(i, st.epoch, groupId, eventId, damageSeed);
  const base = st.damage.values;
  const corr = ctx.correlations;
  const rho = corr ? corr.damageRho[i] : 0;
  const sharedAt = rho > 0 && st.correlation ? st.correlation.at(i, st.epoch, corr!.group[i], eventId, correlationSeed) : -1;
  const shared = st.correlation?.values;
  const hazAt = nHaz > 1 ? st.hazard.at(i, st.epoch, corr ? corr.hazardGroup[i] : groupId, eventId, hazardSeed) : -1;
  const haz = st.hazard.values;
  for (let s = 0; s < S; s++) {
    let h = 0;
    if (hazAt >= 0) h = binarySearch(haz[hazAt + s], hazCdf, nHaz - 1);
    const ibin = ctx.footprint.intensityBin[row + h];
    const cdf = vulnCdf(ctx, items.vulnerability[i], ibin);
    const nb = cdf.length;
    if (nb === 0) continue;
    const rval = sharedAt >= 0 ? correlatedUniform(shared![sharedAt + s], base[baseAt + s], rho) : base[baseAt + s];
    // The last bin takes any draw past the others (search over nb - 1 entries, as gulmc).
    const idx = binarySearch(rval, cdf, nb - 1);
    // A relative damage function scales by the TIV; an absolute one (last bin_to > 1) is the loss itself.
    const scaling = ctx.binTo[nb - 1] <= 1 ? tiv : 1;
    const gul = getGul(ctx.binFrom[idx], ctx.binTo[idx], ctx.binMean[idx], idx > 0 ? cdf[idx - 1] : 0, cdf[idx], rval, scaling);
    out[s * n + i] = gul >= 0 ? f32(gul) : 0;
  }
}
