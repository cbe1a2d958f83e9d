/**
 * Atkinson & Macias (2009), "Predicted ground motions for great interface earthquakes in the Cascadia
 * subduction zone", BSSA 99(3):1552–1578 (AM09): a stochastic finite-fault model for M 7.5–9, one of the
 * interface models of the 2014 and 2018 NSHM for Cascadia (Petersen et al. 2014). PGA on 760 m/s rock,
 * coefficients from their Table 1 as tabulated in the USGS nshmp-haz file AM09.csv:
 * log10 Y(cm/s²) = c0 + c1 log10 R + c2 R + c3 (M − 8) + c4 (M − 8)², R = √(R_rup² + h²), h = M² − 3.1 M − 14.55.
 */

export const AM09_PGA = { c0: 5.006, c1: -1.5573, c2: -0.00034, c3: 0.1774, c4: 0.0827, sigmaLog10: 0.24 } as const;
export const AM09_SIGMA_LN = AM09_PGA.sigmaLog10 * Math.LN10;
// g in cm/s², 980 as in the NSHM code the coefficients were checked against.
const LN_G_CM = Math.log(980);

/** ln median PGA (g) on 760 m/s rock. */
export function am09LnPgaRock(m: number, rrupKm: number): number {
  const k = AM09_PGA;
  const h = m * m - 3.1 * m - 14.55;
  const r = Math.hypot(rrupKm, h);
  const dm = m - 8;
  const log10Y = k.c0 + k.c1 * Math.log10(r) + k.c2 * r + k.c3 * dm + k.c4 * dm * dm;
  return log10Y * Math.LN10 - LN_G_CM;
}
