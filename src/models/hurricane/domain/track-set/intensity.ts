/**
 * Intensity along a track: the wind-pressure relation that keeps central pressure consistent with the
 * maximum wind, the inland decay, and the radius of maximum wind. Coefficients and sources in
 * docs/hurricane-model.md#event-set.
 */

/** Atkinson & Holliday (1977): Vmax = 6.7 (1010 - pc)^0.644, Vmax in kt, pc in hPa. */
export const ATKINSON_HOLLIDAY = { coefficient: 6.7, exponent: 0.644, ambientMb: 1010 } as const;

/** Central pressure (hPa) the Atkinson & Holliday relation gives for a maximum wind (kt). */
export function pressureFromWindKt(windKt: number): number {
  const { coefficient, exponent, ambientMb } = ATKINSON_HOLLIDAY;
  return ambientMb - Math.max(0, windKt / coefficient) ** (1 / exponent);
}

/**
 * The central pressure of a storm whose wind was lowered from the record's `parentWindKt` (with pressure
 * `parentPressureMb`) to `windKt`: the pressure deficit scales as wind^(1/0.644), the Atkinson & Holliday
 * shape, so the record's own pressure-wind pairing is kept and only moved along that curve.
 */
export function pressureForWindKt(windKt: number, parentWindKt: number, parentPressureMb: number): number {
  if (!(windKt < parentWindKt) || parentWindKt <= 0) return parentPressureMb;
  const deficit = ATKINSON_HOLLIDAY.ambientMb - parentPressureMb;
  if (deficit <= 0) return parentPressureMb;
  return ATKINSON_HOLLIDAY.ambientMb - deficit * (windKt / parentWindKt) ** (1 / ATKINSON_HOLLIDAY.exponent);
}

/**
 * Kaplan & DeMaria (1995) inland decay: V(t) = Vb + (R V0 - Vb) e^(-alpha t), alpha = 0.095 /h, R = 0.9,
 * Vb = 26.7 kt, t hours since landfall, V0 the wind at the coast. Below Vb it does not apply (the wind is kept).
 */
export const KAPLAN_DEMARIA_1995 = { alphaPerHour: 0.095, reduction: 0.9, backgroundKt: 26.7 } as const;

export function inlandWindKt(landfallKt: number, hoursOverLand: number): number {
  const { alphaPerHour, reduction, backgroundKt } = KAPLAN_DEMARIA_1995;
  if (landfallKt * reduction <= backgroundKt) return Math.min(landfallKt, backgroundKt);
  return backgroundKt + (reduction * landfallKt - backgroundKt) * Math.exp(-alphaPerHour * Math.max(0, hoursOverLand));
}

/**
 * Vickery & Wadhera (2008), Atlantic hurricanes: ln Rmax = 3.015 - 6.291e-5 dp^2 + 0.0337 lat, Rmax in km,
 * dp = 1013 - pc (hPa), residual sigma 0.441 in ln Rmax. `z` is a standard normal draw (one per track, so a
 * storm keeps its size relative to the median), truncated at +-2 sigma to stay inside the fitted range.
 */
export const VICKERY_WADHERA_2008 = { intercept: 3.015, dp2: -6.291e-5, lat: 0.0337, sigma: 0.441, ambientMb: 1013, zLimit: 2 } as const;

export function rmwKmFromPressure(pressureMb: number, latDeg: number, z = 0): number {
  const c = VICKERY_WADHERA_2008;
  const dp = Math.max(0, c.ambientMb - pressureMb);
  const zz = Math.max(-c.zLimit, Math.min(c.zLimit, z));
  return Math.exp(c.intercept + c.dp2 * dp * dp + c.lat * Math.abs(latDeg) + c.sigma * zz);
}

/** Saffir-Simpson category of a 1-min wind (kt): 0 below hurricane force (64 kt). */
export function saffirSimpsonCategory(windKt: number): number {
  if (windKt >= 137) return 5;
  if (windKt >= 113) return 4;
  if (windKt >= 96) return 3;
  if (windKt >= 83) return 2;
  if (windKt >= 64) return 1;
  return 0;
}
