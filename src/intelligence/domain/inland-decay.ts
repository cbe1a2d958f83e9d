/**
 * Inland decay of a landfalling tropical cyclone's maximum wind, Kaplan & DeMaria (1995, J. Appl. Meteor.
 * 34:2499), as in docs/methods.md#severity-prediction (checked against Geoscience Australia tcrm
 * windSpeedDecay.py):
 *
 *   V(t) = Vb + (R V0 - Vb) e^(-alpha t),   alpha = 0.095 h^-1, R = 0.9, Vb = 26.7 kt, t hours since landfall
 *
 * The distance-inland correction (-C, C = m ln D + b) is left out: it needs the track ahead, which the
 * b-deck does not give. Valid south of 37 N (Kaplan & DeMaria 2001 refit New England; not used here).
 */
export const KD95 = { alphaPerHour: 0.095, reduction: 0.9, backgroundKt: 26.7, validSouthOfLat: 37 } as const;

/** Maximum sustained wind (kt) `hours` after landfall with `landfallKt` at the coast. */
export function decayedWindKt(landfallKt: number, hours: number): number {
  const t = Math.max(0, hours);
  return KD95.backgroundKt + (KD95.reduction * landfallKt - KD95.backgroundKt) * Math.exp(-KD95.alphaPerHour * t);
}

/**
 * The same decay over a step of dt hours over land, from a wind V already inland: V − Vb falls by e^(−α dt).
 * The model is memoryless in V − Vb, so stepping from an observed wind keeps it and adds the observation.
 */
export function decayStepKt(windKt: number, dtHours: number): number {
  if (windKt <= KD95.backgroundKt) return windKt;
  return KD95.backgroundKt + (windKt - KD95.backgroundKt) * Math.exp(-KD95.alphaPerHour * Math.max(0, dtHours));
}

/** Saffir-Simpson category of a 1-min wind in kt (docs/methods.md#hurricane-wind): 0 below hurricane force. */
export function saffirSimpson(windKt: number): number {
  if (windKt >= 137) return 5;
  if (windKt >= 113) return 4;
  if (windKt >= 96) return 3;
  if (windKt >= 83) return 2;
  if (windKt >= 64) return 1;
  return 0;
}

export function stormLabel(windKt: number): string {
  const cat = saffirSimpson(windKt);
  if (cat > 0) return `Category ${cat}`;
  return windKt >= 34 ? 'Tropical storm' : 'Tropical depression';
}
