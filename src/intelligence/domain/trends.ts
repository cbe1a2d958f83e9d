/**
 * Simple documented rules for wildfire growth and river stage (docs/intelligence.md "Prediction"):
 *  - wildfire: the latest growth rate (acres per day between the two most recent size reports), scaled by the
 *    uncontained share (1 - containment/100), carried forward linearly over 24 h and 72 h;
 *  - flood: the least-squares slope of the gauge readings over the last 6 h (at least 3 readings), carried
 *    forward 6 h and 24 h, with the NWS category of each projected stage.
 * Linear persistence is the simplest honest forecast when the source gives none; its error grows with the
 * horizon, which the uncertainty statements say.
 */
import type { FloodStages } from '../../domain/event.js';
import { floodCategory, FLOOD_CATEGORY_LABEL } from '../../domain/rings/gauge.js';

export interface TimedValue {
  at: string;
  value: number;
}

const HOUR_MS = 3_600_000;
/** Containment (%) from which a fire without a growth rate is called held (docs/lifecycle.md: winding down). */
export const HELD_CONTAINMENT_PCT = 90;

export interface FireOutlook {
  acres: number | null;
  containment_pct: number | null;
  growth_acres_per_day: number | null;
  growth_window: { from: string; to: string } | null;
  projected: { hours: number; at: string; acres: number }[];
  trend: 'growing' | 'holding' | 'contained' | 'unknown';
}

export function fireOutlook(sizes: TimedValue[], containment: TimedValue[], validAt: string): FireOutlook {
  const s = [...sizes].sort(byTime);
  const latest = s[s.length - 1];
  const pct = [...containment].sort(byTime).at(-1)?.value ?? null;
  let rate: number | null = null;
  let window: FireOutlook['growth_window'] = null;
  if (s.length >= 2) {
    const prev = s[s.length - 2];
    const days = (Date.parse(latest.at) - Date.parse(prev.at)) / (24 * HOUR_MS);
    if (days > 0) {
      rate = Math.max(0, (latest.value - prev.value) / days);
      window = { from: prev.at, to: latest.at };
    }
  }
  const uncontained = pct === null ? 1 : Math.max(0, 1 - pct / 100);
  const projected =
    latest && rate !== null
      ? [24, 72].map((h) => ({
          hours: h,
          at: plusHours(validAt, h),
          acres: round1(latest.value + rate! * uncontained * (h / 24)),
        }))
      : [];
  // With one size report there is no growth rate; containment alone still says something: at or above the
  // 90 % the lifecycle treats as winding down (docs/lifecycle.md), the fire is held.
  const trend =
    pct !== null && pct >= 100
      ? 'contained'
      : rate === null
        ? pct !== null && pct >= HELD_CONTAINMENT_PCT
          ? 'holding'
          : 'unknown'
        : rate * uncontained > 0
          ? 'growing'
          : 'holding';
  return {
    acres: latest?.value ?? null,
    containment_pct: pct,
    growth_acres_per_day: rate === null ? null : round1(rate),
    growth_window: window,
    projected,
    trend,
  };
}

export interface StageOutlook {
  stage_ft: number | null;
  observed_at: string | null;
  category: string;
  trend_ft_per_hour: number | null;
  trend_window: { from: string; to: string; readings: number } | null;
  projected: { hours: number; at: string; stage_ft: number; category: string }[];
  trend: 'rising' | 'falling' | 'steady' | 'unknown';
}

/** Readings within this many hours of the latest one make the trend. */
export const STAGE_TREND_HOURS = 6;
/** A slope smaller than this (ft/h) is called steady. */
export const STEADY_FT_PER_HOUR = 0.05;

export function stageOutlook(readings: TimedValue[], stages: FloodStages | null, validAt: string): StageOutlook {
  const r = [...readings].sort(byTime);
  const latest = r[r.length - 1];
  const label = (ft: number | null) =>
    stages ? FLOOD_CATEGORY_LABEL[floodCategory(ft, stages)] : FLOOD_CATEGORY_LABEL.unknown;
  if (!latest)
    return {
      stage_ft: null,
      observed_at: null,
      category: label(null),
      trend_ft_per_hour: null,
      trend_window: null,
      projected: [],
      trend: 'unknown',
    };
  const t0 = Date.parse(latest.at);
  const recent = r.filter((x) => t0 - Date.parse(x.at) <= STAGE_TREND_HOURS * HOUR_MS);
  let slope: number | null = null;
  if (recent.length >= 3) {
    const xs = recent.map((x) => (Date.parse(x.at) - t0) / HOUR_MS);
    const ys = recent.map((x) => x.value);
    const mx = mean(xs);
    const my = mean(ys);
    const sxx = xs.reduce((s, x) => s + (x - mx) ** 2, 0);
    if (sxx > 0) slope = xs.reduce((s, x, i) => s + (x - mx) * (ys[i] - my), 0) / sxx;
  }
  const aheadH = Math.max(0, (Date.parse(validAt) - t0) / HOUR_MS);
  const projected =
    slope === null
      ? []
      : [6, 24].map((h) => {
          const ft = round2(latest.value + slope! * (aheadH + h));
          return { hours: h, at: plusHours(validAt, h), stage_ft: ft, category: label(ft) };
        });
  const trend =
    slope === null ? 'unknown' : Math.abs(slope) < STEADY_FT_PER_HOUR ? 'steady' : slope > 0 ? 'rising' : 'falling';
  return {
    stage_ft: latest.value,
    observed_at: latest.at,
    category: label(latest.value),
    trend_ft_per_hour: slope === null ? null : round3(slope),
    trend_window: slope === null ? null : { from: recent[0].at, to: latest.at, readings: recent.length },
    projected,
    trend,
  };
}

const byTime = (a: TimedValue, b: TimedValue) => Date.parse(a.at) - Date.parse(b.at);
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
const plusHours = (iso: string, h: number) => new Date(Date.parse(iso) + h * HOUR_MS).toISOString();
const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;
const round3 = (x: number) => Math.round(x * 1000) / 1000;
