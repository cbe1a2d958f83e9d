/**
 * Toro, Abrahamson & Schneider (1997), "Model of strong ground motions from earthquakes in central and eastern
 * North America: best estimates and uncertainties", Seismological Research Letters 68(1):41–57, moment-magnitude
 * (midcontinent) form, with the finite-fault correction of the fictitious depth that NSHM adopted in 2008
 * (Toro 2002: h·e^(−1.25 + 0.227 M)). One of the stable-crust models of the 2008 and 2014 NSHM. PGA on B/C
 * rock: NSHM's B/C constant t1 = 2.619 (the paper's hard-rock value is 2.20), as tabulated in the USGS
 * nshmp-haz file Toro97Mw.csv, with the median capped at 1.5 g as in the NSHM code.
 * ln Y(g) = t1 + t2 (M − 6) + t3 (M − 6)² − t4 ln R − (t5 − t4) max(ln(R/100), 0) − t6 R, R = √(R_JB² + (th·c(M))²).
 */

export const TORO97_MW_PGA = { t1: 2.619, t2: 0.81, t3: 0, t4: 1.27, t5: 1.16, t6: 0.0021, th: 9.3, sigma: 0.7506 } as const;
export const TORO97_SIGMA_LN = TORO97_MW_PGA.sigma;
const LN_CAP = 0.405;

/** ln median PGA (g) on B/C rock (760 m/s). */
export function toro97LnPgaRock(m: number, rjbKm: number): number {
  const k = TORO97_MW_PGA;
  const h = k.th * Math.exp(-1.25 + 0.227 * m);
  const r = Math.sqrt(rjbKm * rjbKm + h * h);
  let ln = k.t1 + k.t2 * (m - 6) + k.t3 * (m - 6) ** 2 - k.t4 * Math.log(r) - k.t6 * r;
  if (r > 100) ln -= (k.t5 - k.t4) * Math.log(r / 100);
  return Math.min(ln, LN_CAP);
}
