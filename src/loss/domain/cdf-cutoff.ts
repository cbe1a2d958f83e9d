/**
 * gulmc's cutoff of a cumulative distribution. Oasis builds each cdf it uses (an areaperil's hazard cdf
 * over its intensity bins, an item's effective damage cdf over the damage bins) by adding probabilities
 * one bin after another and stops at the first bin where the sum reaches CDF_END (1 - 6e-8, the float32
 * just below 1): the bins after it are dropped, whatever probability they hold, and so are the bins at
 * the end whose float32 cdf value does not rise above the one before. The analytical mean (sidx -1) and
 * the maximum (sidx -5) come from that cut cdf, and every sample is drawn from it, so a model whose tail
 * holds many small probabilities (a footprint over many intensity bins) loses that tail in Oasis's
 * numbers. We follow it so that our numbers are Oasis's.
 *
 * The sums run in float64 over float32 probabilities, and each cdf value is kept in float32, as gulmc
 * keeps them; the mean is taken from those float32 values too. That rounding alone moves a mean by up
 * to a few 1e-8 of the TIV, more than a small mean on a large TIV can take to agree with Oasis to 0.01 %.
 */

/** gulmc stops a cdf once it reaches this (float32 1 - 6e-8). */
export const CDF_END = 0.99999994;

/** Dense damage distributions: what the cutoff needs to rebuild an item's effective damage cdf. */
export interface DamageDistributions {
  /** vulnerability_id -> float32 probabilities [intensity bin * nDamage + damage bin index (bin_index - 1)]. */
  probs: Map<number, Float32Array>;
  nDamage: number;
  /** damage_bin_dict by damage bin index, float32 as Oasis holds it. */
  binTo: Float32Array;
  interp: Float32Array;
}

/** Index of the last entry of cdf[0 .. last] whose value differs from the one before it (0 at least). */
function lastRising(cdf: Float32Array, last: number): number {
  const top = cdf[last];
  while (last > 0 && cdf[last - 1] === top) last--;
  return last;
}

/**
 * How many of the hazard bins prob[from .. end - 1] (one areaperil's footprint rows for an event) Oasis
 * keeps: the cdf stops where it reaches CDF_END, and bins at the end that add nothing to the float32 cdf
 * are dropped. `cdf` is scratch of at least end - from entries; it holds the kept cdf on return.
 */
export function keptHazardBins(prob: ArrayLike<number>, from: number, end: number, cdf: Float32Array): number {
  let cum = 0;
  let k = 0;
  while (from + k < end) {
    cum += Math.fround(prob[from + k]);
    cdf[k++] = cum;
    if (cum >= CDF_END) break;
  }
  return k === 0 ? 0 : lastRising(cdf, k - 1) + 1;
}

/** One item's mean and maximum damage ratio under an event's hazard, from its effective damage cdf cut as Oasis cuts it. */
export interface CutMoments {
  /** The sum over the damage bins kept of each one's float32 cdf step times its interpolation, as gulmc sums it. */
  mean: number;
  /** bin_to of the last damage bin kept. */
  max: number;
}

/**
 * Scratch for effectiveCut, sized once for the largest areaperil and the damage bins.
 */
export class CutScratch {
  readonly cdf: Float32Array;
  readonly hazProb: Float32Array;
  readonly hazCdf: Float32Array;
  constructor(nDamage: number, maxHazardBins: number) {
    this.cdf = new Float32Array(Math.max(1, nDamage));
    this.hazProb = new Float32Array(Math.max(1, maxHazardBins));
    this.hazCdf = new Float32Array(Math.max(1, maxHazardBins));
  }
}

/**
 * The effective damage cdf of vulnerability `probs` under the hazard bins `bins` with probabilities
 * scratch.hazProb[0 .. kept - 1] (the hazard bins keptHazardBins keeps), damage bin by damage bin, each bin's probability the float32 products summed over the hazard bins in their order, as
 * gulmc's calc_eff_damage_cdf; and the mean and maximum damage ratio of that cdf, cut.
 */
export function effectiveCut(
  d: DamageDistributions,
  probs: Float32Array,
  bins: ArrayLike<number>,
  kept: number,
  scratch: CutScratch,
): CutMoments {
  const { nDamage } = d;
  if (kept === 0) return { mean: 0, max: 0 };
  const { cdf, hazProb } = scratch;
  const rowOf = (h: number) => bins[h] * nDamage;
  // The last damage bin holding probability under a kept hazard bin with probability: past it the cdf
  // is flat, so the sum can stop there.
  let top = -1;
  for (let h = 0; h < kept; h++) {
    if (!(hazProb[h] > 0)) continue;
    const row = rowOf(h);
    if (row + nDamage > probs.length) continue;
    for (let b = nDamage - 1; b > top; b--) {
      if (probs[row + b] > 0) {
        top = b;
        break;
      }
    }
  }
  let cum = 0;
  let b = 0;
  while (b < nDamage) {
    for (let h = 0; h < kept; h++) {
      const row = rowOf(h);
      if (row + nDamage <= probs.length) cum += Math.fround(probs[row + b] * hazProb[h]);
    }
    cdf[b++] = cum;
    if (cum >= CDF_END) break;
    // Past the top every bin adds 0: the rest of the cdf is flat, and trimmed.
    if (b > top) break;
  }
  const last = lastRising(cdf, b - 1);
  // The mean as gulmc takes it from the cut cdf: each bin's float32 cdf step times its interpolation.
  let mean = 0;
  let below = 0;
  for (let k = 0; k <= last; k++) {
    mean += (cdf[k] - below) * d.interp[k];
    below = cdf[k];
  }
  return { mean, max: d.binTo[last] };
}
