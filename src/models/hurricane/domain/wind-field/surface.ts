/**
 * From the gradient-level vortex to the intensity measure (peak 3-s gust at 10 m in open terrain, mph),
 * docs/hurricane-model.md "Wind footprint":
 *
 * 1. Gradient to surface: the 10-m marine 1-min wind is K·V_g with K = 0.90, the mean ratio of 10-m to
 *    flight-level (700 hPa) wind in the eyewall from GPS dropsondes (Franklin, Black & Valde 2003), the
 *    factor Holland-type engineering models apply (CLIMADA uses the same 0.9).
 * 2. Storm motion: the background flow 0.55 × the translation vector rotated 20° counter-clockwise is
 *    added to the tangential (counter-clockwise) surface wind, Lin & Chavas (2012, JGR 117 D09120), so
 *    the wind peaks on the right of the track. The record's Vmax includes that motion, so the vortex's
 *    own peak is Vmax − 0.55·|v_t|.
 * 3. Roughness and gust: a neutral log law u(z) = (u_star/κ)·ln(z/z0) with the sea and land profiles equal
 *    at 500 m (the top of the surface layer the two share [judgement, within the 500–1000 m hurricane
 *    boundary-layer depths of Vickery et al. 2009]) gives the open-terrain mean wind at 10 m as
 *    R = [ln(10/z0_l)/ln(500/z0_l)] / [ln(10/z0_s)/ln(500/z0_s)] of the marine one, z0_l = 0.03 m (open
 *    terrain, the intensity measure's roughness) and z0_s = 0.0034 m (the sea roughness of a saturated
 *    drag coefficient C_d ≈ 0.0025 in hurricane winds, Powell, Vickery & Reinhold 2003, via
 *    z0 = 10·e^{−κ/√C_d}). Gust factors follow G = 1 + g·I_u with the log-law turbulence intensity
 *    I_u = 1/ln(10/z0): g is set so that open terrain has Durst's (1960) 3-s/1-min ratio 1.52/1.25
 *    (ASCE 7 commentary, Fig. C26.5-1), and the same g gives the marine gust factor.
 *    Result: open-terrain gust = 1.08 × the marine 1-min wind, marine gust = 1.16 × it.
 * 4. Roughness change at the coast: a site d km inland gets
 *    T(d) = T_land + (T_sea − T_land)·e^{−d/λ}, λ = 2 km [judgement: ASCE 7-16 §26.7.3 lets sea
 *    exposure reach 600 ft inland; the 10-m wind of an internal boundary layer approaches its new
 *    roughness over the first few km (ESDU 82026)]. The direction of the wind (onshore or offshore) is not
 *    modelled: every coastal site is treated as if the wind came off the water.
 */

const KARMAN = 0.4;
export const SURFACE_REDUCTION = 0.9;
export const BACKGROUND_FRACTION = 0.55;
export const BACKGROUND_ROTATION_DEG = 20;
export const Z0_OPEN_TERRAIN_M = 0.03;
export const DRAG_COEFFICIENT_SEA = 0.0025;
export const Z0_SEA_M = 10 * Math.exp(-KARMAN / Math.sqrt(DRAG_COEFFICIENT_SEA));
export const PROFILE_MERGE_HEIGHT_M = 500;
/** Durst (1960): 3-s and 60-s gusts over the hourly mean in open terrain. */
const DURST_3S = 1.52;
const DURST_60S = 1.25;
export const COAST_TRANSITION_KM = 2;
export const MS_TO_MPH = 2.2369363;

const intensity = (z0: number) => 1 / Math.log(10 / z0);
/** Peak factor g in G(3 s | 1 min) = 1 + g·I_u, from Durst's open-terrain ratio. */
const PEAK_FACTOR = (DURST_3S / DURST_60S - 1) / intensity(Z0_OPEN_TERRAIN_M);
const logRatio = (z0: number) => Math.log(10 / z0) / Math.log(PROFILE_MERGE_HEIGHT_M / z0);

/** Open-terrain over marine mean wind at 10 m. */
export const LAND_MEAN_RATIO = logRatio(Z0_OPEN_TERRAIN_M) / logRatio(Z0_SEA_M);
/** 3-s gust over the 1-min mean, over the sea and over open terrain. */
const GUST_FACTOR_SEA = 1 + PEAK_FACTOR * intensity(Z0_SEA_M);
export const GUST_FACTOR_LAND = 1 + PEAK_FACTOR * intensity(Z0_OPEN_TERRAIN_M);
/** Peak 3-s gust per marine 1-min wind: over water, and fully adjusted to open terrain inland. */
export const GUST_PER_MARINE_WIND_SEA = GUST_FACTOR_SEA;
export const GUST_PER_MARINE_WIND_LAND = LAND_MEAN_RATIO * GUST_FACTOR_LAND;

/**
 * Gust per marine 1-min wind at a site inlandKm from the coast; inlandKm <= 0 is over water (or on the
 * shoreline itself), Infinity far inland.
 */
export function gustPerMarineWind(inlandKm: number): number {
  if (!(inlandKm > 0)) return GUST_PER_MARINE_WIND_SEA;
  return GUST_PER_MARINE_WIND_LAND + (GUST_PER_MARINE_WIND_SEA - GUST_PER_MARINE_WIND_LAND) * Math.exp(-inlandKm / COAST_TRANSITION_KM);
}
