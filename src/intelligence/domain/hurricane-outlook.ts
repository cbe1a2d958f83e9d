/**
 * The hurricane part of the prediction: the source's forecast when it gives one (the ATCF b-deck the
 * embedded default holds does not), otherwise inland decay after landfall (Kaplan & DeMaria 1995,
 * inland-decay.ts). Landfall is the first best-track fix over land after a fix over water, the most recent
 * such crossing; the wind at the coast (V0) is the last over-water fix's wind, before land took hold.
 * Pure: the caller says which points are over land.
 */
import { decayedWindKt, KD95, stormLabel } from './inland-decay.js';

export interface Fix { at: string; lat: number; lng: number; windKt: number }

export interface HurricaneOutlook {
  latest_fix: { at: string; lat: number; lng: number; wind_kt: number; over_land: boolean } | null;
  landfall: { at: string; lat: number; lng: number; wind_kt_at_coast: number } | null;
  projected: { hours: number; at: string; hours_since_landfall: number; wind_kt: number; label: string }[];
  state: 'inland_decay' | 'over_water' | 'no_fixes';
  /** The model against the latest fix after landfall, when there is one: how well the decay tracks this storm. */
  check: { at: string; observed_kt: number; modelled_kt: number } | null;
}

const HOUR_MS = 3_600_000;
export const OUTLOOK_HOURS = [6, 12, 24, 48] as const;

export function hurricaneOutlook(fixes: Fix[], isLand: (lat: number, lng: number) => boolean, validAt: string): HurricaneOutlook {
  const f = [...fixes].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  if (f.length === 0) return { latest_fix: null, landfall: null, projected: [], state: 'no_fixes', check: null };
  const land = f.map((x) => isLand(x.lat, x.lng));
  const last = f[f.length - 1];
  const latestFix = { at: last.at, lat: last.lat, lng: last.lng, wind_kt: last.windKt, over_land: land[land.length - 1] };
  if (!land[land.length - 1]) return { latest_fix: latestFix, landfall: null, projected: [], state: 'over_water', check: null };
  let k = land.length - 1;
  while (k > 0 && land[k - 1]) k--;
  if (k === 0) {
    // Every fix is over land (a storm first tracked inland): no crossing to anchor the decay.
    return { latest_fix: latestFix, landfall: null, projected: [], state: 'no_fixes', check: null };
  }
  const coast = f[k - 1];
  const landfall = { at: f[k].at, lat: f[k].lat, lng: f[k].lng, wind_kt_at_coast: coast.windKt };
  const t0 = Date.parse(landfall.at);
  const fromNow = Date.parse(validAt);
  const projected = OUTLOOK_HOURS.map((h) => {
    const at = fromNow + h * HOUR_MS;
    const since = (at - t0) / HOUR_MS;
    const v = decayedWindKt(coast.windKt, since);
    return { hours: h, at: new Date(at).toISOString(), hours_since_landfall: round1(since), wind_kt: round1(v), label: stormLabel(v) };
  });
  const check = f.length - 1 > k || Date.parse(last.at) > t0
    ? { at: last.at, observed_kt: last.windKt, modelled_kt: round1(decayedWindKt(coast.windKt, (Date.parse(last.at) - t0) / HOUR_MS)) }
    : null;
  return { latest_fix: latestFix, landfall, projected, state: 'inland_decay', check };
}

export const KD95_METHOD = {
  name: 'Kaplan & DeMaria (1995) inland decay',
  formula: 'V(t) = Vb + (R*V0 - Vb) * exp(-alpha*t), t hours since landfall',
  parameters: { alpha_per_hour: KD95.alphaPerHour, R: KD95.reduction, Vb_kt: KD95.backgroundKt },
  reference: 'Kaplan, J. and DeMaria, M. (1995): A simple empirical model for predicting the decay of tropical cyclone winds after landfall. J. Appl. Meteor. 34, 2499-2512',
};

const round1 = (x: number) => Math.round(x * 10) / 10;
