/**
 * Parametric triggers (CONTRACT §7, specification §2.2): the vocabulary shared by evaluation, receipts and
 * backtests. Pure types and tables; no I/O.
 */
import type { EventType } from '../../domain/event.js';

export const THRESHOLD_TYPES = ['wind_speed_kt', 'storm_surge_ft', 'magnitude', 'gauge_stage_ft', 'industry_loss_usd', 'central_pressure_mb'] as const;
export type ThresholdType = (typeof THRESHOLD_TYPES)[number];

export type TriggerStatus = 'active' | 'inactive';
/** clear < alert (proximity >= alert_at_pct) < triggered (proximity >= 100); parametric.md §6.5. */
export type TriggerState = 'clear' | 'alert' | 'triggered';

/** What a caller gives for a trigger (specification §2.2), validated by validate.ts. */
export interface TriggerFields {
  name: string;
  peril: EventType;
  lat: number;
  lng: number;
  radius_km: number;
  threshold_type: ThresholdType;
  threshold_value: number;
  alert_at_pct: number;
  notes: string | null;
}

export interface TriggerSpec extends TriggerFields {
  id: string;
  account: string;
  status: TriggerStatus;
  created_at: string;
}

/** A stored trigger with its latest evaluation (what list and create answer). */
export interface TriggerView extends TriggerSpec {
  deactivated_at: string | null;
  last_evaluated_at: string | null;
  state: TriggerState;
  proximity_pct: number;
}

/** The unit each threshold is read in (parametric.md §3); history entries carry it beside every value. */
export const THRESHOLD_UNIT: Record<ThresholdType, string> = {
  wind_speed_kt: 'kt',
  storm_surge_ft: 'ft',
  magnitude: 'Mw',
  gauge_stage_ft: 'ft',
  industry_loss_usd: 'USD',
  central_pressure_mb: 'mb',
};

/**
 * The perils each threshold type can be evaluated for: a threshold our feeds (or `trigger observe`) can
 * supply for that peril. Wind and pressure come from tropical-cyclone track fixes, magnitude from USGS
 * earthquakes, gauge stage from USGS gauges (flood events), surge from surge readings of a storm or a
 * coastal flood; an industry loss estimate (PCS-style) exists for any designated catastrophe.
 */
export const PERILS_BY_THRESHOLD: Record<ThresholdType, readonly EventType[]> = {
  wind_speed_kt: ['hurricane'],
  central_pressure_mb: ['hurricane'],
  storm_surge_ft: ['hurricane', 'flood'],
  magnitude: ['earthquake'],
  gauge_stage_ft: ['flood'],
  industry_loss_usd: ['earthquake', 'hurricane', 'wildfire', 'flood', 'tornado', 'severe_storm', 'winter_storm', 'extreme_heat', 'tsunami', 'volcano'],
};

/** Pressure triggers fire when the value falls BELOW the threshold (CONTRACT §7); every other type at or above. */
export function lowerIsWorse(t: ThresholdType): boolean {
  return t === 'central_pressure_mb';
}
