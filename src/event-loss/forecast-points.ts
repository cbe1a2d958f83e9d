/**
 * The NHC forecast points an advisory's details carry, after a storm's latest fix: what the ensemble's
 * members follow (src/event-loss/hurricane-ensemble.ts), read alike by the live loss band and the triggers'
 * probability to fire. Null when the advisory holds no forecast (a best track), so the ensemble falls back to
 * persistence.
 */
import type { ForecastPoint } from './hurricane-ensemble.js';

const HOUR_MS = 3_600_000;

export function forecastPointsOf(details: Record<string, unknown>, latestFixMs: number): ForecastPoint[] | null {
  if (!Array.isArray(details.forecast)) return null;
  return (details.forecast as Record<string, unknown>[])
    .map((p) => ({
      leadHours: (Date.parse(String(p.valid_at)) - latestFixMs) / HOUR_MS,
      lat: Number(p.lat),
      lng: Number(p.lng),
      windKt: Number(p.max_wind_kt),
    }))
    .filter((p) => p.leadHours > 0 && [p.lat, p.lng, p.windKt].every(Number.isFinite));
}
