/**
 * Intensity along a track: the wind-pressure relation that keeps central pressure consistent with the
 * maximum wind, the inland decay, and the radius of maximum wind. Coefficients and sources in
 * docs/hurricane-model.md#event-set.
 */
import { decayedWindKt, KD95 } from '../../../../intelligence/domain/inland-decay.js';

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
 * Kaplan & DeMaria (1995) inland decay (src/intelligence/domain/inland-decay.ts, which the live predictions
 * use too), from V0 the wind at the coast; at or below the background wind Vb it does not apply (the wind is kept).
 */
export function inlandWindKt(landfallKt: number, hoursOverLand: number): number {
  if (landfallKt * KD95.reduction <= KD95.backgroundKt) return Math.min(landfallKt, KD95.backgroundKt);
  return decayedWindKt(landfallKt, hoursOverLand);
}


