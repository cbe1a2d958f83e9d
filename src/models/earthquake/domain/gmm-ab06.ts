/**
 * Atkinson & Boore (2006), "Earthquake ground-motion prediction equations for eastern North America",
 * BSSA 96(6):2181–2205 (AB06), PGA on B/C rock (Vs30 760 m/s): Table 9 coefficients, reference stress
 * parameter 140 bar (the stress adjustment of their eq. 6 is zero there). One of the stable-crust models of
 * the 2008 and 2014 NSHM (Petersen et al. 2008, 2014). Coefficients as tabulated in the USGS nshmp-haz file
 * AB06BC.csv; as in the NSHM code, R_rup is floored at 2 km and the median PGA is capped at 1.5 g.
 * log10 Y(cm/s²) = c1 + c2 M + c3 M² + (c4 + c5 M) f1 + (c6 + c7 M) f2 + (c8 + c9 M) f0 + c10 R
 * with f0 = max(log10(R0/R), 0), f1 = min(log10 R, log10 R1), f2 = max(log10(R/R2), 0), R0 = 10, R1 = 70, R2 = 140 km.
 */

export const AB06_BC_PGA = {
  c1: 0.523,
  c2: 0.969,
  c3: -0.062,
  c4: -2.44,
  c5: 0.147,
  c6: -2.34,
  c7: 0.191,
  c8: -0.087,
  c9: -0.0829,
  c10: -0.00063,
} as const;

/** AB06 aleatory σ: 0.30 log10 units for all periods (their Table 9), in ln. */
export const AB06_SIGMA_LN = 0.3 * Math.LN10;
/** The NSHM cap on stable-crust median PGA, 1.5 g, written as the NSHM code has it (ln 1.5 ≈ 0.405). */
const LN_CAP = 0.405;
const LN_G_CM = Math.log(980);

/** ln median PGA (g) on B/C rock (760 m/s). */
export function ab06LnPgaRock(m: number, rrupKm: number): number {
  const k = AB06_BC_PGA;
  const r = Math.max(rrupKm, 2);
  const lr = Math.log10(r);
  const f0 = Math.max(1 - lr, 0);
  const f1 = Math.min(lr, Math.log10(70));
  const f2 = Math.max(lr - Math.log10(140), 0);
  const log10Y = k.c1 + k.c2 * m + k.c3 * m * m + (k.c4 + k.c5 * m) * f1 + (k.c6 + k.c7 * m) * f2 + (k.c8 + k.c9 * m) * f0 + k.c10 * r;
  return Math.min(log10Y * Math.LN10 - LN_G_CM, LN_CAP);
}
