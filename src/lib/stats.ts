/** Correlation and least squares over paired samples (the validation figures and the build's measured gradients). */

/** Ranks 1..n with ties at their average rank. */
export function ranks(xs: number[]): number[] {
  const idx = xs.map((x, i) => [x, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(xs.length);
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1][0] === idx[i][0]) j++;
    for (let k = i; k <= j; k++) r[idx[k][1]] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return r;
}

/** Least-squares slope of ys on xs and Pearson's r. */
export function leastSquares(xs: number[], ys: number[]): { slope: number; r: number } {
  const n = xs.length;
  const mx = xs.reduce((t, v) => t + v, 0) / n;
  const my = ys.reduce((t, v) => t + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return { slope: sxy / sxx, r: sxy / Math.sqrt(sxx * syy) };
}

/** Spearman's ρ = Pearson correlation of the ranks (handles ties). NaN with fewer than 3 pairs. */
export function spearman(a: number[], b: number[]): number {
  if (a.length !== b.length || a.length < 3) return NaN;
  return leastSquares(ranks(a), ranks(b)).r;
}
