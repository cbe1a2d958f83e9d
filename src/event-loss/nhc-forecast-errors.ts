/**
 * How far NHC's official Atlantic forecasts miss, by lead time: what a live storm's ensemble spreads its
 * remaining track and intensity by (docs/event-loss.md#hurricane-ensemble).
 *
 * Track: the radii of NHC's 2023 forecast cone (https://www.nhc.noaa.gov/aboutcone.shtml, "Radii of NHC
 * forecast cone circles for 2023, based on error statistics from 2018-2022", Atlantic basin): each circle
 * holds two thirds of the official forecast errors of the previous five seasons. Taking the error as a
 * circular normal in the plane, with σ per axis, its distance is Rayleigh, and P(distance < r) = 2/3 gives
 * σ = r / √(2 ln 3).
 *
 * Intensity: the mean absolute error of NHC's official Atlantic intensity forecasts over 2017-2021, rounded
 * to the knot (Cangialosi 2022, National Hurricane Center Forecast Verification Report, 2021 Hurricane
 * Season, the OFCL five-year means). Taking the error as normal, its σ is the mean absolute error · √(π/2).
 */

const NM_KM = 1.852;

/** Lead time (h) -> the 2/3 probability circle radius (nm), Atlantic, 2023 cone. */
export const CONE_RADIUS_NM: readonly (readonly [number, number])[] = [
  [0, 0],
  [12, 26],
  [24, 39],
  [36, 53],
  [48, 67],
  [60, 81],
  [72, 99],
  [96, 145],
  [120, 205],
];

/** Lead time (h) -> mean absolute intensity error (kt), Atlantic OFCL 2017-2021. */
export const INTENSITY_MAE_KT: readonly (readonly [number, number])[] = [
  [0, 0],
  [12, 5],
  [24, 8],
  [36, 10],
  [48, 11],
  [60, 12],
  [72, 13],
  [96, 14],
  [120, 15],
];

function interpolate(table: readonly (readonly [number, number])[], hours: number): number {
  if (hours <= table[0][0]) return table[0][1];
  for (let i = 1; i < table.length; i++) {
    const [h1, v1] = table[i];
    if (hours <= h1) {
      const [h0, v0] = table[i - 1];
      return v0 + ((v1 - v0) * (hours - h0)) / (h1 - h0);
    }
  }
  return table[table.length - 1][1];
}

const RAYLEIGH_TWO_THIRDS = Math.sqrt(2 * Math.log(3));

/** σ (km) of the position error along each axis at a lead time. */
export function trackSigmaKm(leadHours: number): number {
  return (interpolate(CONE_RADIUS_NM, leadHours) * NM_KM) / RAYLEIGH_TWO_THIRDS;
}

/** σ (kt) of the intensity error at a lead time. */
export function intensitySigmaKt(leadHours: number): number {
  return interpolate(INTENSITY_MAE_KT, leadHours) * Math.sqrt(Math.PI / 2);
}
