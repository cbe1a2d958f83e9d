/**
 * Sampled ground-up losses, as gulmc draws them (full Monte Carlo): per item and sample, a hazard
 * intensity bin from the footprint's distribution (only when it has more than one bin), then a
 * damage ratio from the vulnerability cdf at the uniform draw, interpolated within the damage bin
 * (pytools gul/core.py get_gul). The damage draw is correlated within a peril correlation group:
 * z = sqrt(rho) * group draw + sqrt(1 - rho) * item draw, through gulmc's normal lookup tables.
 * Probabilities and losses are float32 in Oasis, so they are rounded to float32 where it stores them.
 *
 * Speed (the numbers do not depend on it): item constants are laid out by areaperil, so an event reads
 * its items in runs; a run large enough to look up most of gulmc's million-entry cdf table computes
 * it whole first (fillNormTables) and then reads it without checking for entries not computed yet.
 */
import { fillNormTables, fromNorm, fromNormFilled, toNorm } from './normal.js';
import { firstDrawKeys, runFirstDraws } from './philox.js';
import { correlationHash, damageHash, draws, hazardHash, type SeedHash } from './rng.js';
import type { Footprint, Items } from './types.js';

const f32 = Math.fround;
/** gulmc stops a cdf once it reaches this (float32 1 - 6e-8). */
const CDF_END = 0.99999994;
/** Draws (items reached summed over events, times samples) from which the normal cdf table is computed whole up front. */
export const FILL_TABLES_FROM = 4_000_000;

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

/**
 * The draws of one kind (damage, correlation, hazard) for one event: S values per group in one array
 * indexed by the group's dense index, and the event (epoch) each slot was drawn for, so no map is read
 * and nothing is allocated per item; each group is still drawn once per event from its own seed. A
 * group is given by its seed term (SeedHash.group of its id), computed once per group.
 */
class GroupDraws {
  readonly values: Float64Array;
  /** With `withNorm`: ppf of each value (gulmc's table lookup), for the correlation groups' shared draws. */
  readonly norm: Float64Array;
  private readonly stamp: Int32Array;
  private epoch = -1;
  private eventTerm = 0;
  // The groups drawn by drawRun.
  private pending = new Int32Array(0);

  constructor(
    count: number,
    private readonly S: number,
    private readonly hash: SeedHash,
    withNorm = false,
  ) {
    this.values = new Float64Array(count * S);
    this.norm = new Float64Array(withNorm ? count * S : 0);
    this.stamp = new Int32Array(count).fill(-1);
  }

  /** Draws from now on are for this event. */
  startEvent(epoch: number, eventId: number): void {
    this.epoch = epoch;
    this.eventTerm = this.hash.event(eventId);
  }

  /** The seed of a group for this event. */
  private seed(groupTerm: number): number {
    return this.hash.seed(groupTerm, this.eventTerm);
  }

  /** Offset in `values` of group g's draws for this event; they are drawn on the group's first item. */
  at(g: number, groupTerm: number): number {
    const at = g * this.S;
    if (this.stamp[g] !== this.epoch) {
      draws(this.seed(groupTerm), this.S, this.values, at);
      if (this.norm.length > 0) for (let s = 0; s < this.S; s++) this.norm[at + s] = toNorm(this.values[at + s]);
      this.stamp[g] = this.epoch;
    }
    return at;
  }

  /**
   * With one sample, draws now, in one batch, the groups of positions first .. end - 1 not yet drawn
   * for this event (group[p], groupTerm[p] as for `at`), so that `at` finds them drawn: a batch goes
   * through WebAssembly (runFirstDraws), several times cheaper than a call per group.
   */
  drawRun(group: Int32Array, groupTerm: Int32Array, first: number, end: number): void {
    if (this.S !== 1 || this.norm.length > 0) return;
    if (this.pending.length < end - first) this.pending = new Int32Array(end - first);
    const { pending, stamp, epoch } = this;
    const keys = firstDrawKeys(end - first);
    let n = 0;
    for (let p = first; p < end; p++) {
      const g = group[p];
      if (stamp[g] === epoch) continue;
      stamp[g] = epoch;
      pending[n] = g;
      // A seed is below 2^31 in magnitude (negative only for a negative group id): its key's high word
      // is 0, or all ones, as philoxLatinHypercube splits it.
      const seed = this.seed(groupTerm[p]);
      keys[2 * n] = seed;
      keys[2 * n + 1] = seed < 0 ? 0xffffffff : 0;
      n++;
    }
    const drawn = runFirstDraws(n);
    const values = this.values;
    for (let k = 0; k < n; k++) values[pending[k]] = drawn[k];
  }
}

/** The array, or a larger copy of it when it holds fewer than n values (never shrunk). */
function grow<T extends Float32Array>(a: T, n: number, make: (size: number) => T): T {
  if (a.length >= n) return a;
  const b = make(Math.max(n, a.length * 2));
  b.set(a);
  return b;
}
const grow32 = (a: Float32Array, n: number) => grow(a, n, (k) => new Float32Array(k));

/**
 * Samples events one after another; holds the per-item constants, the draws of the current event and
 * every scratch array, so the hot loops allocate nothing. Item constants are laid out by areaperil
 * (position p in areaperil order, item pItem[p]): an event's footprint reaches whole areaperils, so
 * its items are read in runs rather than scattered over the portfolio.
 */
export class EventSampler {
  private readonly S: number;
  private readonly n: number;
  private readonly damage: GroupDraws;
  private readonly correlation?: GroupDraws;
  private readonly hazard: GroupDraws;
  /** areaperil -> dense index; its items are positions apStart[a] .. apStart[a + 1] - 1. */
  private readonly apIndex = new Map<number, number>();
  private readonly apStart: Int32Array;
  // Per position: the item, its float32 TIV, dense vulnerability, groups (dense index and seed term), sqrt(rho), sqrt(1 - rho).
  private readonly pItem: Int32Array;
  private readonly pTiv: Float32Array;
  private readonly pVuln: Int32Array;
  private readonly pDamage: Int32Array;
  private readonly pDamageTerm: Int32Array;
  private readonly pCorr: Int32Array;
  private readonly pCorrTerm: Int32Array;
  private readonly pHazard: Int32Array;
  private readonly pHazardTerm: Int32Array;
  private readonly pSqrtRho: Float64Array;
  private readonly pSqrtRest: Float64Array;
  private readonly vulnIds: number[];
  private readonly maxIntensity: number;
  /** (dense vulnerability, intensity bin) -> damage cdf, filled as events need them. */
  private readonly cdfs: (Float32Array | undefined)[];
  private epoch = 0;
  /** Whether the normal cdf table is computed whole (fillNormTables). */
  private filled = false;
  private hazCdf: Float32Array = new Float32Array(16);

  constructor(private readonly ctx: SampleContext) {
    const S = (this.S = ctx.samples);
    const items = ctx.items;
    const n = (this.n = items.itemId.length);
    const corr = ctx.correlations;
    // Positions: the items of each areaperil together, areaperils in order of first appearance, items in item order.
    const pItem = (this.pItem = new Int32Array(n));
    this.apStart = new Int32Array(ctx.itemsByAreaperil.size + 1);
    let p = 0;
    for (const [ap, list] of ctx.itemsByAreaperil) {
      this.apStart[this.apIndex.size] = p;
      this.apIndex.set(ap, this.apIndex.size);
      for (const i of list) pItem[p++] = i;
    }
    this.apStart[this.apIndex.size] = p;
    const at = <T extends Float64Array | Int32Array>(values: ArrayLike<number>, make: (k: number) => T): T => {
      const out = make(n);
      for (let k = 0; k < n; k++) out[k] = values[pItem[k]];
      return out;
    };
    const f64 = (k: number) => new Float64Array(k);
    // Dense group indices numbered in position order, so that an event's draws are stored in the order it makes them.
    const damageKey = at(items.groupId, f64);
    const hazardKey = at(corr ? corr.hazardGroup : items.groupId, f64);
    const g = dense(damageKey);
    const c = corr ? dense(at(corr.group, f64)) : undefined;
    const h = dense(hazardKey);
    this.damage = new GroupDraws(g.count, S, damageHash);
    this.correlation = c && new GroupDraws(c.count, S, correlationHash, true);
    this.hazard = new GroupDraws(h.count, S, hazardHash);
    this.pDamage = g.index;
    this.pHazard = h.index;
    this.pDamageTerm = Int32Array.from(damageKey, (key) => damageHash.group(key));
    this.pHazardTerm = Int32Array.from(hazardKey, (key) => hazardHash.group(key));
    this.pCorr = new Int32Array(n).fill(-1);
    this.pCorrTerm = new Int32Array(n);
    this.pTiv = new Float32Array(n);
    this.pSqrtRho = new Float64Array(n);
    this.pSqrtRest = new Float64Array(n);
    this.pVuln = new Int32Array(n);
    const vulnDense = new Map<number, number>();
    this.vulnIds = [];
    for (let k = 0; k < n; k++) {
      const i = pItem[k];
      this.pTiv[k] = f32(ctx.tiv[items.coverageId[i]]);
      const rho = corr ? corr.damageRho[i] : 0;
      this.pSqrtRho[k] = Math.sqrt(rho);
      this.pSqrtRest[k] = Math.sqrt(1 - rho);
      // Only a positive correlation draws the group's shared value (gulmc skips it otherwise).
      if (corr && c && rho > 0) {
        this.pCorr[k] = c.index[k];
        this.pCorrTerm[k] = correlationHash.group(corr.group[i]);
      }
      const v = items.vulnerability[i];
      let d = vulnDense.get(v);
      if (d === undefined) {
        vulnDense.set(v, (d = vulnDense.size));
        this.vulnIds.push(v);
      }
      this.pVuln[k] = d;
    }
    let maxIntensity = 0;
    for (let r = 0; r < ctx.footprint.intensityBin.length; r++) maxIntensity = Math.max(maxIntensity, ctx.footprint.intensityBin[r]);
    this.maxIntensity = maxIntensity;
    this.cdfs = new Array((maxIntensity + 1) * this.vulnIds.length);
  }

  /** Computes gulmc's normal cdf table whole now (for a run that reaches most of its entries anyway). */
  fillTables(): void {
    fillNormTables();
    this.filled = true;
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
    const fp = ctx.footprint;
    const epoch = ++this.epoch;
    this.damage.startEvent(epoch, eventId);
    this.correlation?.startEvent(epoch, eventId);
    this.hazard.startEvent(epoch, eventId);
    let r = range[0];
    while (r < range[1]) {
      const ap = fp.areaperil[r];
      let end = r + 1;
      while (end < range[1] && fp.areaperil[end] === ap) end++;
      const a = this.apIndex.get(ap);
      if (a !== undefined) {
        const nHaz = end - r;
        const hazCdf = (this.hazCdf = grow32(this.hazCdf, nHaz));
        let cum = 0;
        for (let h = 0; h < nHaz; h++) hazCdf[h] = cum += f32(fp.prob[r + h]);
        // An areaperil met again in the same event (a footprint not sorted by areaperil) draws its items
        // again, and the last draw is the one kept, as when gulmc meets it again.
        this.sampleRun(this.apStart[a], this.apStart[a + 1], r, nHaz, hazCdf, out);
      }
      r = end;
    }
  }

  /**
   * The items at positions first .. end - 1, on the areaperil of footprint rows row .. row + nHaz - 1, in
   * three passes: the draws (uniform, intensity bin, the correlation's terms), the correlated uniforms
   * (a loop of table lookups alone, whose cache misses the processor overlaps), then the losses.
   */
  private sampleRun(first: number, end: number, row: number, nHaz: number, hazCdf: Float32Array, out: Float64Array): void {
    const S = this.S;
    const n = this.n;
    const { pItem, pVuln, pTiv, pDamage, pDamageTerm, pCorr, pCorrTerm, pHazard, pHazardTerm, pSqrtRho, pSqrtRest } = this;
    const { binFrom, binTo, binMean } = this.ctx;
    const m = (end - first) * S;
    if (this.runU.length < m) this.reserveRun(m);
    const { runU, runX, runB, runBin, runC } = this;
    const damage = this.damage;
    const base = damage.values;
    const bins = this.ctx.footprint.intensityBin;
    // Pass 1: the draws.
    damage.drawRun(pDamage, pDamageTerm, first, end);
    let correlated = 0;
    for (let p = first, j = 0; p < end; p++, j += S) {
      const baseAt = damage.at(pDamage[p], pDamageTerm[p]);
      const cg = pCorr[p];
      if (cg >= 0) {
        const sharedAt = this.correlation!.at(cg, pCorrTerm[p]);
        const norm = this.correlation!.norm;
        for (let s = 0; s < S; s++) {
          runX[j + s] = pSqrtRho[p] * norm[sharedAt + s];
          runB[j + s] = pSqrtRest[p];
        }
        runC[j] = 1;
        correlated++;
      } else runC[j] = 0;
      const hazAt = nHaz > 1 ? this.hazard.at(pHazard[p], pHazardTerm[p]) : -1;
      for (let s = 0; s < S; s++) {
        runU[j + s] = base[baseAt + s];
        runBin[j + s] = bins[row + (hazAt >= 0 ? binarySearch(this.hazard.values[hazAt + s], hazCdf, nHaz - 1) : 0)];
      }
    }
    // Pass 2: gulmc's get_corr_rval, z = sqrt(rho) * ppf(group draw) + sqrt(1 - rho) * ppf(item draw), back through the cdf.
    if (correlated > 0) {
      if (this.filled) {
        for (let j = 0; j < m; j += S) if (runC[j]) for (let s = 0; s < S; s++) runU[j + s] = fromNormFilled(runX[j + s] + runB[j + s] * toNorm(runU[j + s]));
      } else {
        for (let j = 0; j < m; j += S) if (runC[j]) for (let s = 0; s < S; s++) runU[j + s] = fromNorm(runX[j + s] + runB[j + s] * toNorm(runU[j + s]));
      }
    }
    // Pass 3: the losses. The items of a run mostly share their vulnerability and intensity bin: the last cdf is kept at hand.
    let lastVuln = -1;
    let lastBin = -1;
    let cdf: Float32Array = new Float32Array(0);
    for (let p = first, j = 0; p < end; p++, j += S) {
      const i = pItem[p];
      const vuln = pVuln[p];
      for (let s = 0; s < S; s++) {
        const bin = runBin[j + s];
        if (vuln !== lastVuln || bin !== lastBin) {
          cdf = this.cdf(vuln, bin);
          lastVuln = vuln;
          lastBin = bin;
        }
        const nb = cdf.length;
        if (nb === 0) continue;
        const rval = runU[j + s];
        // The last bin takes any draw past the others (search over nb - 1 entries, as gulmc).
        const idx = binarySearch(rval, cdf, nb - 1);
        // A relative damage function scales by the TIV; an absolute one (last bin_to > 1) is the loss itself.
        const scaling = binTo[nb - 1] <= 1 ? pTiv[p] : 1;
        const gul = getGul(binFrom[idx], binTo[idx], binMean[idx], idx > 0 ? cdf[idx - 1] : 0, cdf[idx], rval, scaling);
        out[s * n + i] = gul >= 0 ? f32(gul) : 0;
      }
    }
  }

  // Scratch of one areaperil run, per draw (position in the run * S + s).
  private runU = new Float64Array(0);
  private runX = new Float64Array(0);
  private runB = new Float64Array(0);
  private runBin = new Int32Array(0);
  private runC = new Uint8Array(0);

  private reserveRun(m: number): void {
    this.runU = new Float64Array(m);
    this.runX = new Float64Array(m);
    this.runB = new Float64Array(m);
    this.runBin = new Int32Array(m);
    this.runC = new Uint8Array(m);
  }
}
