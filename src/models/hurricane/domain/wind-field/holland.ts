/**
 * The axisymmetric part of the hurricane wind field: Holland's (1980) gradient-level profile,
 *
 *   V_g(r) = sqrt( (B/ρ)·Δp·(Rm/r)^B·e^{−(Rm/r)^B} + (r f/2)² ) − r f/2,
 *
 * with ρ = 1.15 kg/m³ (Holland 1980), Δp = p_env − p_c and f the Coriolis parameter. B is not taken
 * from an empirical regression here: it is chosen so that the profile's peak, reduced to the surface,
 * reproduces the record's maximum wind, which is what Holland (1980) gives as B = ρ·e·V_gmax²/Δp
 * (the cyclostrophic peak of the profile). Where that B leaves Holland's physical range [1.0, 2.5]
 * (an old record's pressure that does not match its wind), B is clamped and Δp is the quantity
 * adjusted, so the peak still equals the record: the best-track wind is the better-observed of the two
 * for the intensity that matters to damage.
 */

/** Air density in the boundary layer (kg/m³), Holland (1980). */
export const AIR_DENSITY = 1.15;
/** Environmental pressure (hPa) the central-pressure deficit is measured from (as in the hazard baseline). */
export const ENVIRONMENTAL_PRESSURE_HPA = 1010;
export const HOLLAND_B_MIN = 1.0;
export const HOLLAND_B_MAX = 2.5;
const OMEGA = 7.292e-5; // Earth's rotation (rad/s)

/** Coriolis parameter f = 2Ω sin φ (1/s), with a floor so the profile stays defined near the equator. */
export function coriolis(latDeg: number): number {
  return 2 * OMEGA * Math.max(Math.sin((Math.abs(latDeg) * Math.PI) / 180), 0.05);
}

/** One fix's gradient profile: what V_g(r) needs. */
export interface GradientProfile {
  rmKm: number;
  b: number;
  /** Δp (Pa) after the peak-matching adjustment. */
  deltaPPa: number;
  /** Coriolis parameter (1/s). */
  f: number;
}

/**
 * The profile whose cyclostrophic peak equals gradientPeakMs, from the record's central pressure (hPa).
 * A missing or non-positive Δp (pressure at or above the environment) is taken from B at the middle of
 * its range.
 */
export function gradientProfile(gradientPeakMs: number, pressureHpa: number, rmKm: number, latDeg: number): GradientProfile {
  const e = Math.E;
  const peak2 = Math.max(gradientPeakMs, 0) ** 2;
  let deltaPPa = (ENVIRONMENTAL_PRESSURE_HPA - pressureHpa) * 100;
  let b = deltaPPa > 0 ? (AIR_DENSITY * e * peak2) / deltaPPa : NaN;
  if (!(b >= HOLLAND_B_MIN && b <= HOLLAND_B_MAX)) {
    b = Number.isFinite(b) ? Math.min(HOLLAND_B_MAX, Math.max(HOLLAND_B_MIN, b)) : 1.5;
    deltaPPa = (AIR_DENSITY * e * peak2) / b;
  }
  return { rmKm, b, deltaPPa, f: coriolis(latDeg) };
}

/** Gradient wind (m/s) at rKm from the centre; 0 at the centre. */
export function gradientWindMs(p: GradientProfile, rKm: number): number {
  if (!(rKm > 0)) return 0;
  const s = (p.rmKm / rKm) ** p.b;
  return gradientWindOfShape(p, rKm, s, Math.exp(-s));
}

/**
 * gradientWindMs at rKm > 0 given s = (Rm/r)^B and e^{−s}: the surge reads both at the same r (the wind
 * and the pressure deficit), one pow and one exp rather than two each.
 */
export function gradientWindOfShape(p: GradientProfile, rKm: number, s: number, expMinusS: number): number {
  const rf2 = (rKm * 1000 * p.f) / 2;
  return Math.sqrt((p.b / AIR_DENSITY) * p.deltaPPa * s * expMinusS + rf2 * rf2) - rf2;
}
