/**
 * Threshold proximity and trigger state (docs/triggers.md#rules).
 *  - Higher-is-worse types (wind, surge, magnitude, gauge stage, industry loss): 100 × observed / threshold,
 *    the literal "percentage of threshold" of the specification. For magnitude this overstates closeness
 *    (M6.4 against M8.0 reads 80 %), a literal ratio, documented (docs/triggers-backtest.md).
 *  - Central pressure (lower is worse): the deficit from an ambient 1010 mb, 100 × (1010 − observed) /
 *    (1010 − threshold): 935 threshold, 960 observed → 66.7 %; 935 → 100 %; 923 → 116 %.
 * The raw value is kept (above 100 % is informative); only display clamps. No observation → 0 (clear).
 */
export type ThresholdType =
  'wind_speed_kt' | 'storm_surge_ft' | 'magnitude' | 'gauge_stage_ft' | 'industry_loss_usd' | 'central_pressure_mb';
export type TriggerState = 'clear' | 'alert' | 'triggered';

/** Ambient reference pressure for the pressure deficit (mb = hPa), docs/triggers.md#rules. */
export const AMBIENT_PRESSURE_MB = 1010;

export const UNIT_OF: Record<ThresholdType, string> = {
  wind_speed_kt: 'kt',
  storm_surge_ft: 'ft',
  magnitude: 'Mw',
  gauge_stage_ft: 'ft',
  industry_loss_usd: 'USD',
  central_pressure_mb: 'mb',
};

export function proximityPct(type: ThresholdType, observed: number | null, threshold: number): number {
  if (observed === null || !Number.isFinite(observed)) return 0;
  if (type === 'central_pressure_mb') {
    const span = AMBIENT_PRESSURE_MB - threshold;
    // A threshold at or above ambient: any storm meets it once at or below the threshold.
    if (!(span > 0)) return observed <= threshold ? 100 : 0;
    return Math.max(0, (100 * (AMBIENT_PRESSURE_MB - observed)) / span);
  }
  return Math.max(0, (100 * observed) / threshold);
}

/** Rounded to 0.1 % for storage and display (raw, not clamped). */
export function roundPct(pct: number): number {
  return Math.round(pct * 10) / 10;
}

export function stateOf(pct: number, alertAtPct: number): TriggerState {
  if (pct >= 100) return 'triggered';
  if (pct >= alertAtPct) return 'alert';
  return 'clear';
}
