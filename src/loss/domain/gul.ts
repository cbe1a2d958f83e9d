/**
 * Ground-up loss of one event, per item: the analytical mean (sidx -1) and the maximum (sidx -5),
 * from the event's footprint (intensity-bin probabilities per areaperil) and each item's
 * vulnerability. Then gul_alloc_rule 1, as gulmc: the perils on one coverage together never exceed
 * its TIV, so when their sum does, each item's loss is scaled down pro rata to fill exactly the TIV.
 * Rule 0 leaves the item losses uncapped.
 *
 * Each item's mean and maximum come from its effective damage cdf (the damage distribution mixed over
 * the event's hazard bins), cut and rounded as gulmc cuts and rounds it (cdf-cutoff.ts).
 *
 * Only the items the event reaches are visited: they are listed in item order (the order every sum
 * over items runs in, so the numbers are those of a loop over all items, whose other terms are 0).
 */
import { CutScratch, effectiveCut, keptHazardBins } from './cdf-cutoff.js';
import type { GulContext } from './kernel-inputs.js';
import type { KernelModule } from '../wasm/kernel-module.js';
import type { Items } from './types.js';

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

/**
 * One event's ground-up mean and maximum per item, computed in the kernel's module (assembly/gul.ts,
 * the same operations in the same order); the arrays are views of its memory, reused from event to event.
 */
export class EventGul {
  readonly mean: Float64Array;
  readonly max: Float64Array;
  /** 1 for the items the footprint reaches that have a vulnerability. */
  readonly hit: Uint8Array;
  /** The items on an areaperil of the event's footprint, ascending; `count` of them. */
  readonly reached: Int32Array;
  count = 0;

  constructor(
    private readonly ctx: GulContext,
    private readonly module: KernelModule,
  ) {
    const v = module.views;
    this.mean = v.itemMean;
    this.max = v.itemMax;
    this.hit = v.itemHit;
    this.reached = v.reachedList;
    const cuts = module.cuts;
    this.probsOf = Array.from(cuts.vulnerability, (id) => ctx.damage.probs.get(id));
    let maxBin = 0;
    for (const b of ctx.footprint.intensityBin) if (b > maxBin) maxBin = b;
    this.bins = maxBin + 1;
    const memo = cuts.vulnerability.length * this.bins;
    this.memoMean = new Float64Array(memo);
    this.memoMax = new Float64Array(memo);
    this.memoSet = new Uint8Array(memo);
  }

  /**
   * Computes the event; answers whether it touches any item (Oasis writes no record for an event that
   * touches none). Call clear() before the next event. `cap`: apply gul_alloc_rule 1 now (the kernel's
   * fused records apply it in their own passes instead).
   */
  compute(eventId: number, cap = true): boolean {
    const fp = this.ctx.footprint;
    const range = fp.byEvent.get(eventId);
    if (!range) return false;
    const { apIndex } = this.module.positions;
    let touched = 0;
    let r = range[0];
    while (r < range[1]) {
      const ap = fp.areaperil[r];
      let end = r + 1;
      while (end < range[1] && fp.areaperil[end] === ap) end++;
      const a = apIndex.get(ap);
      if (a !== undefined) touched |= this.areaperil(a, r, end);
      r = end;
    }
    return this.finish(touched, cap);
  }

  private scratch?: CutScratch;

  /**
   * The items of areaperil a under its footprint rows from .. end - 1: each item's mean and maximum from
   * its effective damage cdf, cut as Oasis cuts it (cdf-cutoff.ts), worked out once per vulnerability on
   * the areaperil (and once per vulnerability and intensity bin for a footprint row of probability 1, the
   * same cut wherever it falls), then set item by item in the module. An item whose vulnerability has no
   * distribution is only marked reached, row by row in the module.
   */
  private areaperil(a: number, from: number, end: number): number {
    const { wasm } = this;
    const { apStart } = this.module.positions;
    const { apCutStart, apCuts, apWithout, positionCut, has } = this.module.cuts;
    const { cutMean, cutMax } = this.module.views;
    const fp = this.ctx.footprint;
    const dmg = this.ctx.damage;
    const nHaz = end - from;
    if (!this.scratch || this.scratch.hazProb.length < nHaz)
      this.scratch = new CutScratch(dmg.nDamage, Math.max(nHaz, 64));
    const scratch = this.scratch;
    const kept = keptHazardBins(fp.prob, from, end, scratch.hazCdf);
    for (let h = 0; h < nHaz; h++) scratch.hazProb[h] = fp.prob[from + h];
    const bins = fp.intensityBin.subarray(from, end);
    const certain = nHaz === 1 && fp.prob[from] === 1;
    for (let k = apCutStart[a]; k < apCutStart[a + 1]; k++) {
      const d = apCuts[k];
      const probs = this.probsOf[d];
      if (!probs) continue;
      if (certain) {
        const m = d * this.bins + bins[0];
        if (!this.memoSet[m]) {
          const cut = effectiveCut(dmg, probs, bins, kept, scratch);
          this.memoMean[m] = cut.mean;
          this.memoMax[m] = cut.max;
          this.memoSet[m] = 1;
        }
        cutMean[d] = this.memoMean[m];
        cutMax[d] = this.memoMax[m];
      } else {
        const cut = effectiveCut(dmg, probs, bins, kept, scratch);
        cutMean[d] = cut.mean;
        cutMax[d] = cut.max;
      }
    }
    const first = apStart[a];
    const last = apStart[a + 1];
    let touched = wasm.gulCuts(first, last);
    if (apWithout[a])
      for (let p = first; p < last; p++)
        if (!has[positionCut[p]])
          for (let h = 0; h < nHaz; h++) touched |= wasm.gulRow(p, p + 1, bins[h], fp.prob[from + h]);
    return touched;
  }

  /** The damage distribution of each cut index's vulnerability (module.cuts), undefined without one. */
  private readonly probsOf: (Float32Array | undefined)[];
  /** Intensity bins of the footprint (the largest bin + 1): the memo's row length. */
  private readonly bins: number;
  /** Cuts under one bin of probability 1, by cut index * bins + intensity bin; memoSet marks those worked out. */
  private readonly memoMean: Float64Array;
  private readonly memoMax: Float64Array;
  private readonly memoSet: Uint8Array;

  private get wasm() {
    return this.module.wasm;
  }

  private finish(touched: number, cap: boolean): boolean {
    const { wasm } = this.module;
    this.count = wasm.collect();
    if (cap && this.ctx.allocRule === 1 && touched) wasm.capAtTiv();
    return touched === 1;
  }
}
