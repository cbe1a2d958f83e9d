/**
 * Ground-up loss of one event, per item: the analytical mean (sidx -1) and the maximum (sidx -5),
 * from the event's footprint (intensity-bin probabilities per areaperil) and each item's
 * vulnerability. Then gul_alloc_rule 1, as gulmc: the perils on one coverage together never exceed
 * its TIV, so when their sum does, each item's loss is scaled down pro rata to fill exactly the TIV.
 * Rule 0 leaves the item losses uncapped.
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

export interface GulEvent {
  /** Whether the event touches any item (Oasis writes no record for an event that touches none). */
  touched: boolean;
  mean: Float64Array;
  max: Float64Array;
  /** 1 for the items the footprint reaches. */
  hit: Uint8Array;
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

/** Fills `out` (reused across events to keep the hot loop allocation-free). */
export function gulForEvent(ctx: GulContext, eventId: number, out: GulEvent, coverageScratch: { mean: Float64Array; max: Float64Array }): void {
  out.mean.fill(0);
  out.max.fill(0);
  out.hit.fill(0);
  out.touched = false;
  const range = ctx.footprint.byEvent.get(eventId);
  if (!range) return;
  const { items, vuln, footprint: fp } = ctx;
  for (let r = range[0]; r < range[1]; r++) {
    const list = ctx.itemsByAreaperil.get(fp.areaperil[r]);
    if (!list) continue;
    const ib = fp.intensityBin[r];
    const p = fp.prob[r];
    for (const i of list) {
      const v = items.vulnerability[i];
      const m = vuln.mean.get(v);
      const x = vuln.max.get(v);
      if (!m || !x) continue;
      out.touched = true;
      out.hit[i] = 1;
      const tiv = ctx.tiv[items.coverageId[i]];
      out.mean[i] += p * (m[ib] ?? 0) * tiv;
      if (p > 0) {
        const mx = (x[ib] ?? 0) * tiv;
        if (mx > out.max[i]) out.max[i] = mx;
      }
    }
  }
  if (ctx.allocRule === 1 && out.touched) capAtTiv(ctx, out, coverageScratch);
}

function capAtTiv(ctx: GulContext, out: GulEvent, sums: { mean: Float64Array; max: Float64Array }): void {
  const cov = ctx.items.coverageId;
  sums.mean.fill(0);
  sums.max.fill(0);
  for (let i = 0; i < cov.length; i++) {
    sums.mean[cov[i]] += out.mean[i];
    sums.max[cov[i]] += out.max[i];
  }
  for (let i = 0; i < cov.length; i++) {
    const tiv = ctx.tiv[cov[i]];
    if (sums.mean[cov[i]] > tiv) out.mean[i] *= tiv / sums.mean[cov[i]];
    if (sums.max[cov[i]] > tiv) out.max[i] *= tiv / sums.max[cov[i]];
  }
}
