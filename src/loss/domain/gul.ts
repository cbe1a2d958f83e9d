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
import type { KernelModule } from './kernel-module.js';
import type { Footprint, Items, RiskMap, VulnerabilityMoments } from './types.js';

export interface GulContext {
  items: Items;
  /** TIV by coverage_id. */
  tiv: Float64Array;
  vuln: VulnerabilityMoments;
  footprint: Footprint;
  allocRule: 0 | 1;
  /** areaperil -> indices of the items on it. */
  itemsByAreaperil: Map<number, number[]>;
  /** The risk (location and building) of each item, for the number of affected risks; absent: coverages are counted. */
  risks?: RiskMap;
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
    const { wasm, positions } = this.module;
    const { apIndex, apStart } = positions;
    let touched = 0;
    for (let r = range[0]; r < range[1]; r++) {
      const a = apIndex.get(fp.areaperil[r]);
      if (a !== undefined) touched |= wasm.gulRow(apStart[a], apStart[a + 1], fp.intensityBin[r], fp.prob[r]);
    }
    this.count = wasm.collect();
    if (cap && this.ctx.allocRule === 1 && touched) wasm.capAtTiv();
    return touched === 1;
  }
}
