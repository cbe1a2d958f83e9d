/**
 * Parametric triggers (docs/contract.md#triggers): the vocabulary shared by evaluation, receipts and
 * backtests. Pure types and tables; no I/O.
 */
import type { EventType } from '../../domain/event.js';

export const THRESHOLD_TYPES = [
  'wind_speed_kt',
  'storm_surge_ft',
  'magnitude',
  'gauge_stage_ft',
  'industry_loss_usd',
  'central_pressure_mb',
] as const;
export type ThresholdType = (typeof THRESHOLD_TYPES)[number];

export type TriggerStatus = 'active' | 'inactive';
/** clear < alert (proximity >= alert_at_pct) < triggered (proximity >= 100); docs/triggers.md#rules. */
export type TriggerState = 'clear' | 'alert' | 'triggered';

/** What a caller gives for a trigger (docs/contract.md#triggers), validated by validate.ts. */
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

/** The unit each threshold is read in (docs/triggers.md#the-resource); history entries carry it beside every value. */
export const THRESHOLD_UNIT: Record<ThresholdType, string> = {
  wind_speed_kt: 'kt',
  storm_surge_ft: 'ft',
  magnitude: 'Mw',
  gauge_stage_ft: 'ft',
  industry_loss_usd: 'USD',
  central_pressure_mb: 'mb',
};

/**
 * The perils each threshold type can be evaluated for: a threshold a feed of ours supplies for that peril,
 * or one that is reported after the event and entered with `trigger observe`. Wind and pressure come from
 * tropical-cyclone track fixes, magnitude from USGS earthquakes, gauge stage from USGS gauges (flood
 * events). No feed we read publishes surge or industry loss: a hurricane's peak storm surge is reported
 * (NOAA tide gauges, USGS storm-tide sensors, NHC's Tropical Cyclone Reports) and an industry loss
 * estimate (PCS-style) exists for any designated catastrophe, so both are kept as manual-observation
 * triggers. Storm surge on a flood is refused (REFUSED below): our flood events are river gauges and NWS
 * flood alerts, which report stage, never surge.
 */
export const PERILS_BY_THRESHOLD: Record<ThresholdType, readonly EventType[]> = {
  wind_speed_kt: ['hurricane'],
  central_pressure_mb: ['hurricane'],
  storm_surge_ft: ['hurricane'],
  magnitude: ['earthquake'],
  gauge_stage_ft: ['flood'],
  industry_loss_usd: [
    'earthquake',
    'hurricane',
    'wildfire',
    'flood',
    'tornado',
    'severe_storm',
    'winter_storm',
    'extreme_heat',
    'tsunami',
    'volcano',
  ],
};

/** Combinations refused with a reason of their own (the generic "does not fit" names only the types). */
export const REFUSED: Partial<Record<ThresholdType, Partial<Record<EventType, string>>>> = {
  storm_surge_ft: {
    flood:
      'no feed reports storm surge for a flood, and no report would move it: river gauges and NWS flood alerts give stage, so watch a gauge with gauge_stage_ft; storm surge is a hurricane trigger (values entered with `trigger observe`)',
  },
};

/** What moves a trigger: the feed whose records evaluate it, or entered values. */
export const MANUAL_OBSERVATIONS = 'manual observations';
export type EvaluatedFrom = 'nhc' | 'usgs-earthquakes' | 'usgs-gauges' | typeof MANUAL_OBSERVATIONS;

export const EVALUATED_FROM: Record<ThresholdType, EvaluatedFrom> = {
  wind_speed_kt: 'nhc',
  central_pressure_mb: 'nhc',
  magnitude: 'usgs-earthquakes',
  gauge_stage_ft: 'usgs-gauges',
  storm_surge_ft: MANUAL_OBSERVATIONS,
  industry_loss_usd: MANUAL_OBSERVATIONS,
};
