/**
 * Back-allocation: once a node's terms have turned its loss `inp` into `out`, the items under it take
 * their share, so the next level (and the per-item outputs of allocation rule 2) see item losses that
 * add up to the node's. Losses are shared pro rata to the items' current losses. With running amounts
 * (deductible, over-limit, under-limit) the shares follow how each amount moved: a grown amount is
 * shared by loss; a shrunk one scales each item's amount down; a deductible given back (a maximum
 * deductible) returns loss to the items by their under-limit (or, without it, their deductible).
 *
 * A factor below 0 marks "scale by its magnitude" rather than "add factor × loss", as in fmpy.
 */
import type { Extras } from './calcrules.js';

/** What back-allocation touches on each item: its loss and running amounts of one layer. */
export interface ItemLayer {
  loss: Float64Array;
  extras?: Extras;
}

/** Pro rata, losses only. `inp` becomes `out` (the node's stored loss). */
export function shareLoss(items: ItemLayer[], inp: Float64Array, out: Float64Array, n: number): void {
  if (items.length <= 1) {
    inp.set(out.subarray(0, n));
    return;
  }
  const factor = new Float64Array(n);
  for (let s = 0; s < n; s++) {
    factor[s] = out[s] ? out[s] / inp[s] : 0;
    inp[s] = out[s];
  }
  for (const item of items) for (let s = 0; s < n; s++) item.loss[s] *= factor[s];
}

/** Losses and running amounts; `before` holds the node's amounts before its terms, `after` after them. */
export function shareLossAndExtras(
  items: ItemLayer[],
  inp: Float64Array,
  out: Float64Array,
  after: Extras,
  before: Extras | undefined,
  n: number,
): void {
  if (items.length <= 1 || !before) {
    inp.set(out.subarray(0, n));
    return;
  }
  const fLoss = new Float64Array(n);
  const fDed = new Float64Array(n);
  const fOver = new Float64Array(n);
  const fUnder = new Float64Array(n);
  for (let s = 0; s < n; s++) {
    let realloc = 0;
    const dDed = after.ded[s] - before.ded[s];
    if (dDed >= 0) {
      fDed[s] = inp[s] > 0 ? dDed / inp[s] : 0;
      fLoss[s] = inp[s] > 0 ? out[s] / inp[s] : 0;
    } else {
      realloc = dDed;
      fDed[s] = dDed / (after.under[s] > 0 ? before.under[s] : before.ded[s]);
      fLoss[s] = out[s] / (inp[s] - dDed);
    }
    const dOver = after.over[s] - before.over[s];
    fOver[s] = dOver > 0 ? dOver / (inp[s] - realloc) : dOver === 0 ? 0 : -after.over[s] / before.over[s];
    const dUnder = after.under[s] - before.under[s];
    fUnder[s] = dUnder > 0 ? dUnder / inp[s] : dUnder === 0 ? 0 : -after.under[s] / before.under[s];
    inp[s] = out[s];
  }
  for (const item of items) {
    const loss = item.loss;
    const x = item.extras!;
    for (let s = 0; s < n; s++) {
      if (fDed[s] < 0) {
        const realloc = fUnder[s] === 0 ? fDed[s] * x.ded[s] : fDed[s] * x.under[s];
        x.over[s] = fOver[s] >= 0 ? x.over[s] + fOver[s] * (loss[s] - realloc) : -fOver[s] * x.over[s];
        loss[s] = (loss[s] - realloc) * fLoss[s];
        x.ded[s] += realloc;
        x.under[s] = -fUnder[s] * x.under[s];
      } else {
        x.over[s] = fOver[s] >= 0 ? x.over[s] + fOver[s] * loss[s] : -fOver[s] * x.over[s];
        x.under[s] = fUnder[s] >= 0 ? x.under[s] + fUnder[s] * loss[s] : -fUnder[s] * x.under[s];
        x.ded[s] += fDed[s] * loss[s];
        loss[s] *= fLoss[s];
      }
    }
  }
}

/**
 * A cross-layer profile ran on the sum of a node's layers (`inp` -> `out`): each layer's share, pro
 * rata to the layer's loss, into `shares[layer]`.
 */
export function shareAcrossLayers(
  layers: Float64Array[],
  inp: Float64Array,
  out: Float64Array,
  shares: Float64Array[],
  n: number,
): void {
  for (let s = 0; s < n; s++) {
    const factor = out[s] ? out[s] / inp[s] : 0;
    for (let l = 0; l < layers.length; l++) shares[l][s] = layers[l][s] * factor;
  }
}

/** As shareAcrossLayers, with each layer's running amounts moved as the merged amounts moved (`before` -> `after`). */
export function shareAcrossLayersWithExtras(
  layers: Float64Array[],
  layerExtras: Extras[],
  inp: Float64Array,
  out: Float64Array,
  after: Extras,
  before: Extras,
  shares: Float64Array[],
  n: number,
): void {
  for (let s = 0; s < n; s++) {
    let realloc = 0;
    let fDed: number;
    let fLoss: number;
    const dDed = after.ded[s] - before.ded[s];
    if (dDed >= 0) {
      fDed = inp[s] > 0 ? dDed / inp[s] : 0;
      fLoss = inp[s] > 0 ? out[s] / inp[s] : 0;
    } else {
      realloc = dDed;
      fDed = realloc / (after.under[s] > 0 ? before.under[s] : before.ded[s]);
      fLoss = out[s] / (inp[s] - realloc);
    }
    const dOver = after.over[s] - before.over[s];
    const fOver = dOver > 0 ? dOver / (inp[s] - realloc) : dOver === 0 ? 0 : -after.over[s] / before.over[s];
    const dUnder = after.under[s] - before.under[s];
    const fUnder = dUnder > 0 ? dUnder / inp[s] : dUnder === 0 ? 0 : -after.under[s] / before.under[s];
    for (let l = 0; l < layers.length; l++) {
      const loss = layers[l];
      const x = layerExtras[l];
      if (fDed < 0) {
        const layerRealloc = fUnder === 0 ? fDed * x.ded[s] : fDed * x.under[s];
        if (fOver >= 0) x.over[s] += fOver * (loss[s] - layerRealloc);
        else x.over[s] *= -fOver;
        shares[l][s] = (loss[s] - layerRealloc) * fLoss;
        x.ded[s] += layerRealloc;
        x.under[s] *= -fUnder;
      } else {
        if (fOver >= 0) x.over[s] += fOver * loss[s];
        else x.over[s] *= -fOver;
        if (fUnder >= 0) x.under[s] += fUnder * loss[s];
        else x.under[s] *= -fUnder;
        x.ded[s] += fDed * loss[s];
        shares[l][s] = loss[s] * fLoss;
      }
    }
  }
}
