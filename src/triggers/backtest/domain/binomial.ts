/**
 * Clopper–Pearson ("exact") confidence interval for a binomial proportion k/n: Clopper & Pearson (1934),
 * Biometrika 26(4):404–413. We use it for the annual probability of firing because the counts are small
 * (a handful of firing years in ~125) and often zero: its coverage is never below the nominal level,
 * whereas Wald undercovers badly near 0 and Wilson dips below nominal for small n·p (Brown, Cai &
 * DasGupta 2001, Statistical Science 16(2):101–133). The price is a somewhat wider interval, which is
 * the honest side to err on for a bond's attachment probability.
 *   lower: P(X ≥ k | p) = α/2 (0 when k = 0);  upper: P(X ≤ k | p) = α/2 (1 when k = n).
 * Solved by bisection on the binomial tail (n is at most a few hundred years), so no Beta quantile code.
 */

/** log of n choose k via a running sum of logs (exact enough for n up to ~10^4). */
function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/** P(X ≤ k) for X ~ Binomial(n, p). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  let sum = 0;
  for (let i = 0; i <= k; i++) sum += Math.exp(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log1p(-p));
  return Math.min(1, sum);
}

/** The p in [0, 1] where the decreasing function f(p) crosses target. */
function bisect(f: (p: number) => number, target: number): number {
  let lo = 0;
  let hi = 1;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (f(mid) > target) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export interface Interval {
  lower: number;
  upper: number;
}

/** Two-sided Clopper–Pearson interval at `level` (e.g. 0.9) for k successes in n trials. */
export function clopperPearson(k: number, n: number, level: number): Interval {
  if (!(n > 0) || k < 0 || k > n) throw new Error(`clopperPearson: need 0 <= k <= n, n > 0 (k=${k}, n=${n})`);
  const tail = (1 - level) / 2;
  // P(X >= k | p) = 1 − P(X <= k−1 | p) increases with p; its complement P(X <= k−1 | p) decreases.
  const lower = k === 0 ? 0 : bisect((p) => binomialCdf(k - 1, n, p), 1 - tail);
  const upper = k === n ? 1 : bisect((p) => binomialCdf(k, n, p), tail);
  return { lower, upper };
}
