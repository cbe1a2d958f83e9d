/**
 * The standard normal cdf Φ, one home for every approximation the project uses. `normalCdf` is the default;
 * each other one gives different bits, and the line above it says why that one must stay (moving a model to
 * another would change numbers already published or recorded: scores, hazard tables, model packages).
 * The double-precision cdf and ppf that gulmc's lookup tables need are in normal-exact.ts.
 */

/** Φ via the complementary error function, Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): the default. */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erfc = poly * Math.exp(-x * x);
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/**
 * The same A&S 7.1.26 written as ½(1 ± erf). Kept apart because the hurricane model's fragilities and its
 * track random walk were built with this rounding (their packages are recorded with it); it also loses the
 * lower tail where 1 − erf cancels (Φ below about 1e-16 comes out 0), which neither of them reaches.
 */
export function normalCdfViaErf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/**
 * Φ from the complementary error function of Numerical Recipes (Press et al. 1992, §6.2, erfcc: Chebyshev
 * fit, fractional error below 1.2e-7 everywhere). Kept apart because its error is relative, so the far tail
 * keeps its accuracy: PAGER's fatality rates at MMI IV are near 1e-8, where 7.1.26's absolute error is not.
 */
export function normalCdfRelativeTail(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t *
          (1.00002368 +
            t *
              (0.37409196 +
                t *
                  (0.09678418 +
                    t *
                      (-0.18628806 +
                        t *
                          (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/**
 * Φ by Abramowitz & Stegun 26.2.17 (|error| < 7.5e-8). Kept apart because the hurricane model's gust
 * uncertainty spreads each footprint cell over its intensity bins with it (the packages are recorded so).
 */
export function normalCdfAs26217(x: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(x));
  const d = 0.3989422804014327 * Math.exp((-x * x) / 2);
  const p = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return x > 0 ? 1 - p : p;
}
