/**
 * Radius of maximum wind where the record gives none: Vickery & Wadhera (2008, JAMC 47:2497), fitted to
 * flight-level RMW of Atlantic hurricanes, ln Rm = 3.015 − 6.291e-5·Δp² + 0.0337·φ (Rm km, Δp hPa from
 * 1013 hPa, φ latitude), the median of a lognormal with σ_lnRm = 0.441. It is the statistical model the
 * engineering hurricane wind models behind the ASCE 7 maps use, which suits a footprint read against them.
 */
export const VW08_SIGMA_LN = 0.441;
/** Draws of the residual are kept within ±2σ, inside the range the relation was fitted on. */
const Z_LIMIT = 2;

/** The median, or with `z` (a standard normal draw, one per track so a storm keeps its size) a draw of the lognormal. */
export function vickeryWadheraRmKm(pressureHpa: number, latDeg: number, z = 0): number {
  const dp = Math.max(0, 1013 - pressureHpa);
  const zz = Math.max(-Z_LIMIT, Math.min(Z_LIMIT, z));
  return Math.exp(3.015 - 6.291e-5 * dp * dp + 0.0337 * Math.abs(latDeg) + VW08_SIGMA_LN * zz);
}

/** Atkinson & Holliday (1977) Vmax = 6.7·(1010 − pc)^0.644 (kt, hPa), inverted: a pressure for a wind when the record has none. */
export function pressureFromWindHpa(windKt: number): number {
  return 1010 - (Math.max(windKt, 0) / 6.7) ** (1 / 0.644);
}
