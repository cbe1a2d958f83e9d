// AssemblyScript (see index.ts). gulmc's normal tables, as domain/normal.ts reads them: the ppf table's
// entries evaluated when read (Wichura's AS 241 at numpy.linspace's points), interpolated in the tails
// and truncated elsewhere; the cdf table's entries computed by the host when first read and kept.

/** Math.log of the host: the same bits as JavaScript's (V8 calls its own log directly for this import). */
@external("env", "log")
declare function hostLog(x: f64): f64;
/** Entry k of gulmc's normal cdf table, computed by the host (domain/normal.ts) when first read. */
@external("env", "cdfEntry")
declare function hostCdfEntry(k: i32): f64;

// gulmc's normal cdf table (NORM_N f64; NaN where not computed yet), laid out by the host and handed over
// by setupSampler (sample.ts).
let cdfTable: usize = 0;

export function setupCdfTable(table: usize): void {
  cdfTable = table;
}

export const NORM_N: i32 = 1000000;
export const X_MIN: f64 = 1e-16;
const X_MAX: f64 = 1 - 1e-16;
export const CDF_MIN: f64 = -20;
const CDF_MAX: f64 = 20;
export const INV_FACTOR: f64 = <f64>(NORM_N - 1) / (X_MAX - X_MIN);
export const NORM_FACTOR: f64 = <f64>(NORM_N - 1) / (CDF_MAX - CDF_MIN);
const X_STEP: f64 = (X_MAX - X_MIN) / <f64>(NORM_N - 1);
export const TAIL: f64 = 0.025;
export const UPPER_TAIL: f64 = 1 - TAIL;

/** lib/numerics/normal-exact.ts normalPpf: Wichura's AS 241. */
function normPpf(p: f64): f64 {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q * (((((((r * 2509.0809287301226727 + 33430.575583588128105) * r + 67265.770927008700853) * r + 45921.953931549871457) * r + 13731.693765509461125) * r + 1971.5909503065514427) * r + 133.14166789178437745) * r + 3.387132872796366608)) /
      (((((((r * 5226.495278852854561 + 28729.085735721942674) * r + 39307.89580009271061) * r + 21213.794301586595867) * r + 5394.1960214247511077) * r + 687.1870074920579083) * r + 42.313330701600911252) * r + 1)
    );
  }
  let r = Math.sqrt(-hostLog(q < 0 ? p : 1 - p));
  let x: f64;
  if (r <= 5) {
    r -= 1.6;
    x =
      (((((((r * 7.7454501427834140764e-4 + 0.0227238449892691845833) * r + 0.24178072517745061177) * r + 1.27045825245236838258) * r + 3.64784832476320460504) * r + 5.7694972214606914055) * r + 4.6303378461565452959) * r + 1.42343711074968357734) /
      (((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r + 0.14810397642748007459) * r + 0.68976733498510000455) * r + 1.6763848301838038494) * r + 2.05319162663775882187) * r + 1);
  } else {
    r -= 5;
    x =
      (((((((r * 2.01033439929228813265e-7 + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r + 0.026532189526576123093) * r + 0.29656057182850489123) * r + 1.7848265399172913358) * r + 5.4637849111641143699) * r + 6.6579046435011037772) /
      (((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r + 7.868691311456132591e-4) * r + 0.0148753612908506148525) * r + 0.13692988092273580531) * r + 0.59983220655588793769) * r + 1);
  }
  return q < 0 ? -x : x;
}

/** Entry k of gulmc's ppf table (normal.ts ppfEntry: numpy.linspace's k-th point). */
@inline export function ppfEntry(k: i32): f64 {
  return normPpf(k == NORM_N - 1 ? X_MAX : <f64>k * X_STEP + X_MIN);
}

/** normal.ts toNorm: interpolated in the tails, truncated elsewhere. */
export function toNorm(u: f64): f64 {
  const pos = (u - X_MIN) * INV_FACTOR;
  if (u < TAIL || u > UPPER_TAIL) {
    const fl = Math.floor(pos);
    const frac = pos - fl;
    const lower = fl < 0 ? 0 : fl > <f64>(NORM_N - 2) ? NORM_N - 2 : <i32>fl;
    const a = ppfEntry(lower);
    return a + frac * (ppfEntry(lower + 1) - a);
  }
  const tr = Math.trunc(pos);
  const index = tr < 0 ? 0 : tr > <f64>(NORM_N - 1) ? NORM_N - 1 : <i32>tr;
  return ppfEntry(index);
}

@inline export function cdfAt(k: i32): f64 {
  const at = cdfTable + (<usize>k << 3);
  let v = load<f64>(at);
  if (v != v) {
    v = hostCdfEntry(k);
    store<f64>(at, v);
  }
  return v;
}

/** normal.ts fromNorm: interpolated between the two entries around z. */
export function fromNorm(z: f64): f64 {
  const pos = (z - CDF_MIN) * NORM_FACTOR;
  const fl = Math.floor(pos);
  const frac = pos - fl;
  const lower = fl < 0 ? 0 : fl > <f64>(NORM_N - 2) ? NORM_N - 2 : <i32>fl;
  const a = cdfAt(lower);
  return a + frac * (cdfAt(lower + 1) - a);
}

// ---- For the tests (wasm/kernel-module.test.ts): against domain/normal.ts toNorm and fromNorm.

export function toNormOf(u: f64): f64 {
  return toNorm(u);
}

export function fromNormOf(z: f64): f64 {
  return fromNorm(z);
}
