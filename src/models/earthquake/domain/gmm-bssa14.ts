/**
 * Boore, Stewart, Seyhan & Atkinson (2014), "NGA-West2 equations for predicting PGA, PGV, and 5 %-damped
 * PSA for shallow crustal earthquakes", Earthquake Spectra 30(3):1057–1085 (BSSA14), for PGA only.
 * Coefficients: the PGA row of the paper's electronic supplement (also PEER report 2013/05, Table 3.1 etc.),
 * as tabulated in the USGS nshmp-haz coefficient file BSSA14.csv. California/global regional
 * anelastic term (Δc3 = 0); no basin term (z1 unknown → δz1 = 0, and BSSA14 apply it only at T ≥ 0.65 s).
 */

export type FaultStyle = 'unspecified' | 'strike-slip' | 'normal' | 'reverse';

/** BSSA14 PGA coefficients (event, path, site and aleatory terms). */
export const BSSA14_PGA = {
  e0: 0.4473, // unspecified mechanism
  e1: 0.4856, // strike-slip
  e2: 0.2459, // normal
  e3: 0.4539, // reverse
  e4: 1.431,
  e5: 0.05053,
  e6: -0.1662,
  mh: 5.5,
  c1: -1.134,
  c2: 0.1917,
  c3: -0.008088,
  mRef: 4.5,
  rRef: 1,
  h: 4.5,
  c: -0.6, // linear site term
  vc: 1500,
  vRef: 760,
  f1: 0,
  f3: 0.1,
  f4: -0.15,
  f5: -0.00701,
  r1: 110,
  r2: 270,
  dPhiR: 0.1,
  dPhiV: 0.07,
  v1: 225,
  v2: 300,
  phi1: 0.695,
  phi2: 0.495,
  tau1: 0.398,
  tau2: 0.348,
} as const;

const K = BSSA14_PGA;

function eventTerm(m: number, style: FaultStyle): number {
  const e = style === 'strike-slip' ? K.e1 : style === 'normal' ? K.e2 : style === 'reverse' ? K.e3 : K.e0;
  const d = m - K.mh;
  return e + (m <= K.mh ? K.e4 * d + K.e5 * d * d : K.e6 * d);
}

function pathTerm(m: number, rjbKm: number): number {
  const r = Math.sqrt(rjbKm * rjbKm + K.h * K.h);
  return (K.c1 + K.c2 * (m - K.mRef)) * Math.log(r / K.rRef) + K.c3 * (r - K.rRef);
}

/** ln median PGA (g) on the 760 m/s reference rock (BSSA14 eqs. 1–4 with F_S = 0). */
export function bssa14LnPgaRock(m: number, rjbKm: number, style: FaultStyle = 'unspecified'): number {
  return eventTerm(m, style) + pathTerm(m, rjbKm);
}

/**
 * BSSA14 site amplification (ln) relative to 760 m/s, eqs. 5–8: linear term c·ln(min(Vs30, Vc)/Vref) and the
 * nonlinear term f2·ln((PGA_r + f3)/f3) driven by the rock PGA (g). Zero at Vs30 = 760.
 */
export function bssa14SiteTerm(vs30: number, pgaRockG: number): number {
  const lin = K.c * Math.log(Math.min(vs30, K.vc) / K.vRef);
  const f2 = K.f4 * (Math.exp(K.f5 * (Math.min(vs30, 760) - 360)) - Math.exp(K.f5 * (760 - 360)));
  return lin + K.f1 + f2 * Math.log((pgaRockG + K.f3) / K.f3);
}

/** Total standard deviation (ln) of BSSA14, eqs. 13–17: τ(M) and φ(M, R_JB, Vs30). */
export function bssa14Sigma(m: number, rjbKm: number, vs30: number): number {
  const tau = m >= 5.5 ? K.tau2 : m <= 4.5 ? K.tau1 : K.tau1 + (K.tau2 - K.tau1) * (m - 4.5);
  let phi = m >= 5.5 ? K.phi2 : m <= 4.5 ? K.phi1 : K.phi1 + (K.phi2 - K.phi1) * (m - 4.5);
  if (rjbKm > K.r2) phi += K.dPhiR;
  else if (rjbKm > K.r1) phi += K.dPhiR * (Math.log(rjbKm / K.r1) / Math.log(K.r2 / K.r1));
  if (vs30 <= K.v1) phi -= K.dPhiV;
  else if (vs30 < K.v2) phi -= K.dPhiV * (Math.log(K.v2 / vs30) / Math.log(K.v2 / K.v1));
  return Math.sqrt(phi * phi + tau * tau);
}

/** BSSA14 ln median PGA (g) and σ (ln) at a site of the given Vs30. */
export function bssa14(m: number, rjbKm: number, vs30: number, style: FaultStyle = 'unspecified'): { lnMedian: number; sigma: number } {
  const lnRock = bssa14LnPgaRock(m, rjbKm, style);
  return { lnMedian: lnRock + bssa14SiteTerm(vs30, Math.exp(lnRock)), sigma: bssa14Sigma(m, rjbKm, vs30) };
}
