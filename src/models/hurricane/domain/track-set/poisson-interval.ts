/**
 * The exact (Garwood 1936) confidence interval of a Poisson mean from an observed count n: the lower bound
 * is the alpha/2 quantile of Gamma(n, 1), the upper the 1 - alpha/2 quantile of Gamma(n + 1, 1).
 */

/** Regularised lower incomplete gamma P(a, x) (series below a + 1, continued fraction above; Numerical Recipes 6.2). */
function gammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  const lnFront = -x + a * Math.log(x) - logGamma(a);
  if (x < a + 1) {
    let sum = 1 / a;
    let term = sum;
    for (let k = 1; k < 500; k++) {
      term *= x / (a + k);
      sum += term;
      if (Math.abs(term) < Math.abs(sum) * 1e-14) break;
    }
    return sum * Math.exp(lnFront);
  }
  let b = x + 1 - a;
  let c = 1e300;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (Math.abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-14) break;
  }
  return 1 - Math.exp(lnFront) * h;
}

/* eslint-disable no-loss-of-precision -- Lanczos's coefficients as published (Press et al., gammln) */
/** Lanczos approximation of ln Γ(x), x > 0. */
function logGamma(x: number): number {
  const g = [76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5];
  let y = x;
  const tmp = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let ser = 1.000000000190015;
  for (const c of g) ser += c / ++y;
  return -tmp + Math.log((2.5066282746310005 * ser) / x);
}
/* eslint-enable no-loss-of-precision */

function gammaQuantile(a: number, p: number): number {
  let lo = 0;
  let hi = Math.max(10, a * 4 + 20);
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (gammaP(a, mid) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/** Central (1 - alpha) interval of the Poisson mean behind an observed count (0.9 for alpha = 0.1). */
export function poissonInterval(count: number, alpha = 0.1): { low: number; high: number } {
  const low = count === 0 ? 0 : gammaQuantile(count, alpha / 2);
  return { low, high: gammaQuantile(count + 1, 1 - alpha / 2) };
}
