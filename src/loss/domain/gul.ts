/**
 * Ground-up loss of one event, per item: the analytical mean (sidx -1) and the maximum (sidx -5),
 * from the event's footprint (intensity-bin probabilities per areaperil) and each item's
 * vulnerability. Then gul_alloc_rule 1, as gulmc: the perils on one coverage together never exceed
 * its TIV, so when their sum does, each item's loss is scaled down pro rata to fill exactly the TIV.
 * Rule 0 leaves the item losses uncapped.
 *
 * Only the items the event reaches are visited: they are listed in item order (the order every sum
 * over items runs in, so the numbers are those of a loop over all items, whose other terms are 0).
 */
import type { Footprint, Items, VulnerabilityMoments } from './types.js';

export interface GulContext {
  items: Items;
  /** TIV by coverage_id. */
  tiv: Float64Array;
  vuln: VulnerabilityMoments;
  footprint: Footprint;
  allocRule: 0 | 1;
  /** areaperil -> indices of the items on it. */
  itemsByAreaperil: Map<number, number[]>;
}

export function itemsByAreaperil(items: Items): Map<number, number[]> {
  const m = new Map<number, number[]>();
  for (let i = 0; i < items.itemId.length; i++) {
    const a = items.areaperil[i];
    const list = m.get(a);
    if (list) list.push(i);
    else m.set(a, [i]);
  }
  return m;
}

/** One event's ground-up mean and maximum per item; the arrays are reused from event to event. */
export class EventGul {
  readonly mean: Float64Array;
  readonly max: Float64Array;
  /** 1 for the items the footprint reaches that have a vulnerability. */
  readonly hit: Uint8Array;
  /** The items on an areaperil of the event's footprint, ascending; `count` of them. */
  readonly reached: Int32Array;
  count = 0;
  private readonly bits: Uint32Array;
  // Items laid out by areaperil (as in sample.ts): position p holds item pItem[p], its TIV and its
  // vulnerability's moments (index into meanOf/maxOf, -1 without moments).
  private readonly apIndex = new Map<number, number>();
  private readonly apStart: Int32Array;
  private readonly pItem: Int32Array;
  private readonly pTiv: Float64Array;
  private readonly pVuln: Int32Array;
  private readonly meanOf: Float64Array[] = [];
  private readonly maxOf: Float64Array[] = [];
  private readonly covMean: Float64Array;
  private readonly covMax: Float64Array;

  constructor(private readonly ctx: GulContext) {
    const { items, vuln, tiv } = ctx;
    const n = items.itemId.length;
    this.mean = new Float64Array(n);
    this.max = new Float64Array(n);
    this.hit = new Uint8Array(n);
    this.reached = new Int32Array(n);
    this.bits = new Uint32Array((n + 31) >>> 5);
    this.pItem = new Int32Array(n);
    this.pTiv = new Float64Array(n);
    this.pVuln = new Int32Array(n);
    this.apStart = new Int32Array(ctx.itemsByAreaperil.size + 1);
    const vulnIndex = new Map<number, number>();
    let p = 0;
    for (const [ap, list] of ctx.itemsByAreaperil) {
      this.apStart[this.apIndex.size] = p;
      this.apIndex.set(ap, this.apIndex.size);
      for (const i of list) {
        this.pItem[p] = i;
        this.pTiv[p] = tiv[items.coverageId[i]];
        const v = items.vulnerability[i];
        let d = vulnIndex.get(v);
        if (d === undefined) {
          const m = vuln.mean.get(v);
          const x = vuln.max.get(v);
          d = m && x ? this.meanOf.length : -1;
          if (m && x) {
            this.meanOf.push(m);
            this.maxOf.push(x);
          }
          vulnIndex.set(v, d);
        }
        this.pVuln[p] = d;
        p++;
      }
    }
    this.apStart[this.apIndex.size] = p;
    this.covMean = new Float64Array(tiv.length);
    this.covMax = new Float64Array(tiv.length);
  }

  /**
   * Computes the event; answers whether it touches any item (Oasis writes no record for an event that
   * touches none). Call clear() before the next event.
   */
  compute(eventId: number): boolean {
    const fp = this.ctx.footprint;
    const range = fp.byEvent.get(eventId);
    if (!range) return false;
    const { bits, meanOf, maxOf, mean, max, hit, pItem, pTiv, pVuln, apStart } = this;
    let touched = false;
    for (let r = range[0]; r < range[1]; r++) {
      const a = this.apIndex.get(fp.areaperil[r]);
      if (a === undefined) continue;
      const ib = fp.intensityBin[r];
      const prob = fp.prob[r];
      for (let p = apStart[a]; p < apStart[a + 1]; p++) {
        const i = pItem[p];
        bits[i >>> 5] |= 1 << (i & 31);
        const v = pVuln[p];
        if (v < 0) continue;
        touched = true;
        hit[i] = 1;
        const tiv = pTiv[p];
        mean[i] += prob * (meanOf[v][ib] ?? 0) * tiv;
        if (prob > 0) {
          const mx = (maxOf[v][ib] ?? 0) * tiv;
          if (mx > max[i]) max[i] = mx;
        }
      }
    }
    this.collect();
    if (this.ctx.allocRule === 1 && touched) this.capAtTiv();
    return touched;
  }

  /** The reached items, ascending, from the bit set (cleared on the way). */
  private collect(): void {
    const { bits, reached } = this;
    let count = 0;
    for (let w = 0; w < bits.length; w++) {
      let word = bits[w];
      if (word === 0) continue;
      bits[w] = 0;
      while (word !== 0) {
        const low = word & -word;
        reached[count++] = (w << 5) + (31 - Math.clz32(low));
        word ^= low;
      }
    }
    this.count = count;
  }

  private capAtTiv(): void {
    const cov = this.ctx.items.coverageId;
    const tivs = this.ctx.tiv;
    const { reached, count, mean, max, covMean, covMax } = this;
    for (let k = 0; k < count; k++) {
      const c = cov[reached[k]];
      covMean[c] = 0;
      covMax[c] = 0;
    }
    for (let k = 0; k < count; k++) {
      const i = reached[k];
      covMean[cov[i]] += mean[i];
      covMax[cov[i]] += max[i];
    }
    for (let k = 0; k < count; k++) {
      const i = reached[k];
      const c = cov[i];
      const tiv = tivs[c];
      if (covMean[c] > tiv) mean[i] *= tiv / covMean[c];
      if (covMax[c] > tiv) max[i] *= tiv / covMax[c];
    }
  }

  /** Back to zeros for the items of the last event. */
  clear(): void {
    const { reached, count, mean, max, hit } = this;
    for (let k = 0; k < count; k++) {
      const i = reached[k];
      mean[i] = 0;
      max[i] = 0;
      hit[i] = 0;
    }
    this.count = 0;
  }
}
