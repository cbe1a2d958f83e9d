/**
 * The tables the host prepares once per run for the sampler in the kernel's module (wasm/kernel-module.ts): dense
 * group indices and the damage cdfs, cut where gulmc cuts them (cdf-cutoff.ts).
 */
import { CDF_END } from './cdf-cutoff.js';
import type { SampleContext } from './kernel-inputs.js';

/** Dense indices 0..count-1 of a column's distinct values, in order of first appearance. */
export function dense(values: ArrayLike<number>): { index: Int32Array; count: number } {
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
 * The damage cdf of every (dense vulnerability, intensity bin): cumulative float32 probabilities of the
 * damage bins, stopped once they reach CDF_END and without the bins at the end that leave the float32 cdf
 * where it was, as gulmc cuts them (cdf-cutoff.ts), one after another in `arena`; key
 * vulnerability * (maxIntensity + 1) + intensity bin.
 */
export function damageCdfs(
  ctx: SampleContext,
  vulnIds: number[],
  maxIntensity: number,
): { start: Int32Array; length: Int32Array; arena: Float32Array } {
  const bins = maxIntensity + 1;
  const start = new Int32Array(vulnIds.length * bins);
  const length = new Int32Array(vulnIds.length * bins);
  const values: number[] = [];
  for (let v = 0; v < vulnIds.length; v++) {
    const probs = ctx.vulnProbs.get(vulnIds[v]);
    for (let ibin = 0; ibin < bins; ibin++) {
      const key = v * bins + ibin;
      start[key] = values.length;
      let cum = 0;
      for (let d = 0; d < ctx.nDamage; d++) {
        cum += probs ? probs[ibin * ctx.nDamage + d] : 0;
        values.push(Math.fround(cum));
        if (cum >= CDF_END) break;
      }
      while (values.length - start[key] > 1 && values[values.length - 2] === values[values.length - 1]) values.pop();
      length[key] = values.length - start[key];
    }
  }
  return { start, length, arena: Float32Array.from(values) };
}
