/**
 * The standard normal cdf and its inverse to double precision: what gulmc's lookup tables are made of
 * (src/loss/domain/normal.ts builds its entries from these), where the approximations of normal.ts would
 * give other correlated draws than Oasis's.
 */

/* eslint-disable no-loss-of-precision -- Wichura's AS 241 coefficients (below) are kept digit for digit as published;
   each rounds to the double the algorithm was tuned with. */

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

/** Φ to double precision (scipy's norm.cdf, whose values gulmc's cdf table holds). */
export function normalCdfExact(x: number): number {
  if (x >= 0) return 1 - upperTail(x);
  return upperTail(-x);
}

/**
 * Inverse cdf: Wichura's algorithm AS 241 (PPND16, Applied Statistics 37(3), 477-484, 1988), rational
 * approximations accurate to about 1e-16 relative: three regions, |p - 0.5| <= 0.425, then
 * r = sqrt(-log(min(p, 1 - p))) up to 5, and beyond. Cheap enough (no table, no iteration) to be
 * evaluated for every draw.
 */
export function normalPpf(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (
      (q *
        (((((((r * 2509.0809287301226727 + 33430.575583588128105) * r + 67265.770927008700853) * r +
          45921.953931549871457) *
          r +
          13731.693765509461125) *
          r +
          1971.5909503065514427) *
          r +
          133.14166789178437745) *
          r +
          3.387132872796366608)) /
      (((((((r * 5226.495278852854561 + 28729.085735721942674) * r + 39307.89580009271061) * r +
        21213.794301586595867) *
        r +
        5394.1960214247511077) *
        r +
        687.1870074920579083) *
        r +
        42.313330701600911252) *
        r +
        1)
    );
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let x: number;
  if (r <= 5) {
    r -= 1.6;
    x =
      (((((((r * 7.7454501427834140764e-4 + 0.0227238449892691845833) * r + 0.24178072517745061177) * r +
        1.27045825245236838258) *
        r +
        3.64784832476320460504) *
        r +
        5.7694972214606914055) *
        r +
        4.6303378461565452959) *
        r +
        1.42343711074968357734) /
      (((((((r * 1.05075007164441684324e-9 + 5.475938084995344946e-4) * r + 0.0151986665636164571966) * r +
        0.14810397642748007459) *
        r +
        0.68976733498510000455) *
        r +
        1.6763848301838038494) *
        r +
        2.05319162663775882187) *
        r +
        1);
  } else {
    r -= 5;
    x =
      (((((((r * 2.01033439929228813265e-7 + 2.71155556874348757815e-5) * r + 0.0012426609473880784386) * r +
        0.026532189526576123093) *
        r +
        0.29656057182850489123) *
        r +
        1.7848265399172913358) *
        r +
        5.4637849111641143699) *
        r +
        6.6579046435011037772) /
      (((((((r * 2.04426310338993978564e-15 + 1.4215117583164458887e-7) * r + 1.8463183175100546818e-5) * r +
        7.868691311456132591e-4) *
        r +
        0.0148753612908506148525) *
        r +
        0.13692988092273580531) *
        r +
        0.59983220655588793769) *
        r +
        1);
  }
  return q < 0 ? -x : x;
}
