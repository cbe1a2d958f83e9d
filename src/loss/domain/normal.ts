/**
 * gulmc's lookup tables over the standard normal cdf and its inverse (src/lib/numerics/normal-exact.ts).
 * The sampler reads Φ and Φ⁻¹ through these tables, not the numerics module's functions, because gulmc
 * does: it does not evaluate them directly but reads precomputed tables of 1 000 000 points
 * (norm.ppf over linspace(1e-16, 1 - 1e-16) and norm.cdf over linspace(-20, 20)), truncating or
 * interpolating between entries. The same entries give the same correlated random values: a ppf entry
 * is evaluated when it is read, a cdf entry computed on first use.
 */

import { normalCdfExact, normalPpf } from '../../lib/numerics/normal-exact.js';

export const NORM_TABLE = { xMin: 1e-16, xMax: 1 - 1e-16, n: 1_000_000, cdfMin: -20, cdfMax: 20 } as const;

/** numpy.linspace(start, stop, n)[k]. */
function linspaceAt(start: number, stop: number, n: number, k: number): number {
  if (k === n - 1) return stop;
  const step = (stop - start) / (n - 1);
  return k * step + start;
}

// The table constants as plain numbers.
const N = NORM_TABLE.n;
const X_MIN = NORM_TABLE.xMin;
const X_MAX = NORM_TABLE.xMax;
const CDF_MIN = NORM_TABLE.cdfMin;
const CDF_MAX = NORM_TABLE.cdfMax;

/** Entry k of gulmc's ppf table, computed when it is read rather than stored (as the kernel's module does). */
function ppfEntry(k: number): number {
  return normalPpf(linspaceAt(X_MIN, X_MAX, N, k));
}

/** Entry k of gulmc's cdf table (the sampler module asks for an entry when it first reads it). */
export function cdfTableEntry(k: number): number {
  return normalCdfExact(linspaceAt(CDF_MIN, CDF_MAX, N, k));
}

const INV_FACTOR = (N - 1) / (X_MAX - X_MIN);
const NORM_FACTOR = (N - 1) / (CDF_MAX - CDF_MIN);
/** Below this distance from 0 or 1 a uniform is looked up with interpolation (the tails), else truncated. */
const TAIL = 0.025;
const UPPER_TAIL = 1 - TAIL;

/**
 * ppf by table as gulmc: _interpolate_lookup (linear between the two entries around the position,
 * clamped) in the tails, _fast_lookup (the entry at the truncated position, clamped) elsewhere. The
 * kernel's module (src/loss/assembly/normal.ts) does the same; this is its reference in the tests.
 */
export function toNorm(u: number): number {
  const pos = (u - X_MIN) * INV_FACTOR;
  if (u < TAIL || u > UPPER_TAIL) {
    let lower = Math.floor(pos);
    const frac = pos - lower;
    // Clamped as Math.min(Math.max(lower, 0), N - 2) (NaN stays NaN).
    lower = lower < 0 ? 0 : lower > N - 2 ? N - 2 : lower;
    const a = ppfEntry(lower);
    return a + frac * (ppfEntry(lower + 1) - a);
  }
  let index = Math.trunc(pos);
  index = index < 0 ? 0 : index > N - 1 ? N - 1 : index;
  return ppfEntry(index);
}

/** cdf by table: _interpolate_lookup (the module's reference in the tests, as toNorm). */
export function fromNorm(z: number): number {
  const pos = (z - CDF_MIN) * NORM_FACTOR;
  let lower = Math.floor(pos);
  const frac = pos - lower;
  lower = lower < 0 ? 0 : lower > N - 2 ? N - 2 : lower;
  const a = cdfTableEntry(lower);
  return a + frac * (cdfTableEntry(lower + 1) - a);
}
