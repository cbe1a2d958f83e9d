/**
 * The standard normal cdf and its inverse, to double precision, and gulmc's lookup tables over them:
 * gulmc does not evaluate them directly but reads precomputed tables of 1 000 000 points
 * (norm.ppf over linspace(1e-16, 1 - 1e-16) and norm.cdf over linspace(-20, 20)), truncating or
 * interpolating between entries. The same entries give the same correlated random values; an entry
 * is computed on demand instead of storing 16 MB.
 */

const SQRT2PI = Math.sqrt(2 * Math.PI);

function pdf(x: number): number {
  return Math.exp(-0.5 * x * x) / SQRT2PI;
}

/** Upper tail Q(x) for x >= 0: series near 0, continued fraction (Lentz) in the tail. */
function upperTail(x: number): number {
  if (x < 3) {
    // Phi(x) - 1/2 = pdf(x) * sum x^(2n+1) / (1*3*...*(2n+1)); all terms positive.
    let term = x;
    let sum = x;
    for (let n = 1; n < 500; n++) {
      term *= (x * x) / (2 * n + 1);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return 0.5 - pdf(x) * sum;
  }
  // Q(x) = pdf(x) / (x + 1/(x + 2/(x + 3/(x + ...)))), evaluated by modified Lentz.
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n++) {
    d = x + n * d;
    d = d === 0 ? tiny : d;
    c = x + n / c;
    c = c === 0 ? tiny : c;
    d = 1 / d;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return pdf(x) / f;
}

export function normCdf(x: number): number {
  if (x >= 0) return 1 - upperTail(x);
  return upperTail(-x);
}

/** Inverse cdf: Acklam's rational approximation, refined by Halley steps on normCdf. */
export function normPpf(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [-3.969683028665376e1, 2.209460984245205e2, -2.759285104469687e2, 1.38357751867269e2, -3.066479806614716e1, 2.506628277459239];
  const b = [-5.447609879822406e1, 1.615858368580409e2, -1.556989798598866e2, 6.680131188771972e1, -1.328068155288572e1];
  const c = [-7.784894002430293e-3, -3.223964580411365e-1, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [7.784695709041462e-3, 3.224671290700398e-1, 2.445134137142996, 3.754408661907416];
  const pl = 0.02425;
  let x: number;
  if (p < pl) {
    const q = Math.sqrt(-2 * Math.log(p));
    x = (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  } else if (p <= 1 - pl) {
    const q = p - 0.5;
    const r = q * q;
    x = ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x = -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  for (let i = 0; i < 3; i++) {
    // Error in the tail that holds p, so the step keeps relative precision for tiny p.
    const err = x < 0 ? normCdf(x) - p : 1 - p - upperTail(x);
    const u = err * SQRT2PI * Math.exp(0.5 * x * x);
    x = x - u / (1 + (x * u) / 2);
  }
  return x;
}

export const NORM_TABLE = { xMin: 1e-16, xMax: 1 - 1e-16, n: 1_000_000, cdfMin: -20, cdfMax: 20 } as const;

/** numpy.linspace(start, stop, n)[k]. */
function linspaceAt(start: number, stop: number, n: number, k: number): number {
  if (k === n - 1) return stop;
  const step = (stop - start) / (n - 1);
  return k * step + start;
}

// Filled lazily (NaN = not computed yet): typed arrays, not Maps, so a large portfolio's millions of
// lookups cost no allocation (the entries are the same numbers either way).
let ppfTable: Float64Array | undefined;
let cdfTable: Float64Array | undefined;
// The table constants as plain numbers: the lookups below run hundreds of millions of times.
const N = NORM_TABLE.n;
const X_MIN = NORM_TABLE.xMin;
const X_MAX = NORM_TABLE.xMax;
const CDF_MIN = NORM_TABLE.cdfMin;
const CDF_MAX = NORM_TABLE.cdfMax;

function ppfEntry(k: number): number {
  const t = (ppfTable ??= new Float64Array(N).fill(NaN));
  return (t[k] = normPpf(linspaceAt(X_MIN, X_MAX, N, k)));
}

function cdfEntry(k: number): number {
  const t = (cdfTable ??= new Float64Array(N).fill(NaN));
  return (t[k] = normCdf(linspaceAt(CDF_MIN, CDF_MAX, N, k)));
}

const INV_FACTOR = (N - 1) / (X_MAX - X_MIN);
const NORM_FACTOR = (N - 1) / (CDF_MAX - CDF_MIN);
/** Below this distance from 0 or 1 a uniform is looked up with interpolation (the tails), else truncated. */
const TAIL = 0.025;
const UPPER_TAIL = 1 - TAIL;

/**
 * ppf by table as gulmc: _interpolate_lookup (linear between the two entries around the position, clamped)
 * in the tails, _fast_lookup (the entry at the truncated position, clamped) elsewhere.
 */
export function toNorm(u: number): number {
  const t = ppfTable ?? (ppfTable = new Float64Array(N).fill(NaN));
  const pos = (u - X_MIN) * INV_FACTOR;
  if (u < TAIL || u > UPPER_TAIL) {
    let lower = Math.floor(pos);
    const frac = pos - lower;
    // Clamped as Math.min(Math.max(lower, 0), N - 2) (NaN stays NaN).
    lower = lower < 0 ? 0 : lower > N - 2 ? N - 2 : lower;
    let a = t[lower];
    if (a !== a) a = ppfEntry(lower);
    let b = t[lower + 1];
    if (b !== b) b = ppfEntry(lower + 1);
    return a + frac * (b - a);
  }
  let index = Math.trunc(pos);
  index = index < 0 ? 0 : index > N - 1 ? N - 1 : index;
  const v = t[index];
  return v === v ? v : ppfEntry(index);
}

/** cdf by table: _interpolate_lookup. */
export function fromNorm(z: number): number {
  const t = cdfTable ?? (cdfTable = new Float64Array(N).fill(NaN));
  const pos = (z - CDF_MIN) * NORM_FACTOR;
  let lower = Math.floor(pos);
  const frac = pos - lower;
  lower = lower < 0 ? 0 : lower > N - 2 ? N - 2 : lower;
  let a = t[lower];
  if (a !== a) a = cdfEntry(lower);
  let b = t[lower + 1];
  if (b !== b) b = cdfEntry(lower + 1);
  return a + frac * (b - a);
}

/**
 * Computes every entry of both tables now. For a run that will look up most of them anyway (tens of
 * millions of draws over a million entries), after which toNormFilled and fromNormFilled, the same
 * lookups without the check for an entry not computed yet, may be used. The tables are held in shared
 * memory (normTables / useNormTables), so that the kernel's threads read one copy: 16 MB, half a
 * cache's worth, rather than one each.
 */
export function fillNormTables(): void {
  if (ppfFull.length === N) return;
  const shared = (old: Float64Array | undefined) => {
    const t = new Float64Array(new SharedArrayBuffer(N * 8)).fill(NaN);
    if (old) t.set(old);
    return t;
  };
  const p = (ppfTable = shared(ppfTable));
  const c = (cdfTable = shared(cdfTable));
  for (let k = 0; k < N; k++) {
    if (p[k] !== p[k]) ppfEntry(k);
    if (c[k] !== c[k]) cdfEntry(k);
  }
  ppfFull = p;
  cdfFull = c;
}

/** The whole tables once fillNormTables has run (shared memory: another thread installs them with useNormTables). */
export function normTables(): { ppf: Float64Array; cdf: Float64Array } | undefined {
  return ppfFull.length === N ? { ppf: ppfFull, cdf: cdfFull } : undefined;
}

/** Installs tables that fillNormTables computed in another thread. */
export function useNormTables(t: { ppf: Float64Array; cdf: Float64Array }): void {
  ppfTable = ppfFull = t.ppf;
  cdfTable = cdfFull = t.cdf;
}

let ppfFull: Float64Array = new Float64Array(0);
let cdfFull: Float64Array = new Float64Array(0);

/** toNorm once fillNormTables has run. */
export function toNormFilled(u: number): number {
  const t = ppfFull;
  const pos = (u - X_MIN) * INV_FACTOR;
  if (u < TAIL || u > UPPER_TAIL) {
    let lower = Math.floor(pos);
    const frac = pos - lower;
    lower = lower < 0 ? 0 : lower > N - 2 ? N - 2 : lower;
    const a = t[lower];
    return a + frac * (t[lower + 1] - a);
  }
  let index = Math.trunc(pos);
  index = index < 0 ? 0 : index > N - 1 ? N - 1 : index;
  return t[index];
}

/** fromNorm once fillNormTables has run. */
export function fromNormFilled(z: number): number {
  const t = cdfFull;
  const pos = (z - CDF_MIN) * NORM_FACTOR;
  let lower = Math.floor(pos);
  const frac = pos - lower;
  lower = lower < 0 ? 0 : lower > N - 2 ? N - 2 : lower;
  const a = t[lower];
  return a + frac * (t[lower + 1] - a);
}
