/**
 * A trigger replayed against the historical catalogs (docs/triggers-backtest.md): every year in which it
 * would have fired or come within alert_at_pct, with the storms or quakes named, and the annual
 * probability of firing (years with a firing / years covered) with a 90 % Clopper–Pearson interval.
 * Pure: the catalogs arrive indexed (storms.ts, quakes.ts); "now" arrives as the last complete year.
 */
import {
  proximityPct,
  roundPct,
  stateOf,
  UNIT_OF,
  type ThresholdType,
  type TriggerState,
} from '../../domain/proximity.js';
import { clopperPearson } from './binomial.js';
import { catalogAt, replayQuakes, type QuakeIndex } from './quakes.js';
import { replayStorms, type StormIndex } from './storms.js';

export const BACKTESTABLE = ['wind_speed_kt', 'central_pressure_mb', 'magnitude'] as const;
export type BacktestThreshold = (typeof BACKTESTABLE)[number];

export interface BacktestTrigger {
  lat: number;
  lng: number;
  radius_km: number;
  threshold_type: ThresholdType;
  threshold_value: number;
  alert_at_pct: number;
}

export interface BacktestCatalogs {
  storms: StormIndex;
  quakes: QuakeIndex;
  /** The baseline's calibrated Rm factor (hurricane_wind.radius_scale). */
  radiusScale: number;
  /** First and last year of each catalog file. */
  span: Record<'atlantic' | 'pacific' | 'ceus' | 'wus', { first: number; last: number }>;
}

/**
 * Default first years. Hurricanes: 1900, as the baseline (docs/scoring.md): HURDAT2 Atlantic tracks
 * before 1900 miss storms that never met a ship or a coast (Landsea et al. 2004, the reanalysis project),
 * and the NE/N-Central Pacific file starts in 1949. Quakes: the completeness years the baseline uses,
 * M >= 6.0 since 1850 and M >= 4.5 since 1930 (docs/scoring.md, earthquake rows), else since 1975.
 */
export const HURRICANE_SINCE = 1900;
export function quakeSince(magnitude: number): number {
  return magnitude >= 6 ? 1850 : magnitude >= 4.5 ? 1930 : 1975;
}

export const CONFIDENCE_LEVEL = 0.9;

export interface BacktestEvent {
  id: string;
  name: string;
  at: string; // ISO 8601: the position or origin time that gave the value
  value: number;
  unit: string;
  distance_km: number;
  proximity_pct: number;
  state: Exclude<TriggerState, 'clear'>;
}

export interface BacktestYear {
  year: number;
  state: Exclude<TriggerState, 'clear'>;
  events: BacktestEvent[];
}

export interface BacktestResult {
  catalog: string;
  from_year: number;
  to_year: number;
  years_covered: number;
  years_triggered: number;
  years_alert: number;
  years: BacktestYear[];
  annual_probability: { value: number; lower: number; upper: number; level: number; interval: 'clopper-pearson' };
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const isoOfHours = (h: number) => new Date(Math.round(h * 60) * 60_000).toISOString().replace('.000Z', 'Z');

/** Throws a plain Error for an unsupported type; the handler turns it into 422 before calling. */
export function backtest(
  t: BacktestTrigger,
  cat: BacktestCatalogs,
  lastCompleteYear: number,
  sinceYear?: number,
): BacktestResult {
  const unit = UNIT_OF[t.threshold_type];
  const events: Array<BacktestEvent & { year: number }> = [];
  const keep = (year: number, e: Omit<BacktestEvent, 'proximity_pct' | 'state' | 'unit'>) => {
    const pct = proximityPct(t.threshold_type, e.value, t.threshold_value);
    const state = stateOf(pct, t.alert_at_pct);
    if (state !== 'clear') events.push({ year, ...e, unit, proximity_pct: roundPct(pct), state });
  };
  let catalog: string;
  let first: number;
  let last: number;
  if (t.threshold_type === 'wind_speed_kt' || t.threshold_type === 'central_pressure_mb') {
    const hits = replayStorms(
      cat.storms,
      { lat: t.lat, lng: t.lng, radiusKm: t.radius_km, thresholdType: t.threshold_type },
      cat.radiusScale,
      sinceYear ?? 0,
      lastCompleteYear,
    );
    // A site whose storms come mostly from the Pacific file is covered only from that file's first year.
    const pacific = hits.filter((h) => h.storm.basin === 'pacific').length * 2 > hits.length && hits.length > 0;
    const basin = pacific ? cat.span.pacific : cat.span.atlantic;
    catalog = pacific ? 'HURDAT2 NE/N-Central Pacific' : 'HURDAT2 Atlantic';
    first = Math.max(sinceYear ?? HURRICANE_SINCE, basin.first);
    last = Math.min(lastCompleteYear, basin.last);
    for (const h of hits) {
      if (h.storm.year < first || h.storm.year > last) continue;
      keep(h.storm.year, {
        id: h.storm.id,
        name: h.storm.name,
        at: isoOfHours(h.hours),
        value: round1(h.value),
        distance_km: round1(h.distanceKm),
      });
    }
  } else if (t.threshold_type === 'magnitude') {
    const region = catalogAt(cat.quakes, t.lat, t.lng) ?? 'wus';
    const span = cat.span[region];
    catalog =
      region === 'wus' ? 'NSHMP 2014 WUS declustered catalog (wmm.c3)' : 'NSHM 2023 CEUS full catalog (emm_pn.c2)';
    first = Math.max(sinceYear ?? quakeSince(t.threshold_value), span.first);
    last = Math.min(lastCompleteYear, span.last);
    const minMagnitude = (t.threshold_value * t.alert_at_pct) / 100;
    for (const h of replayQuakes(
      cat.quakes,
      { lat: t.lat, lng: t.lng, radiusKm: t.radius_km },
      minMagnitude,
      first,
      last,
    )) {
      const q = h.quake;
      keep(q.year, {
        id: q.id,
        name: `M${q.magnitude.toFixed(2)} ${q.time.slice(0, 10)} at ${q.lat.toFixed(2)}, ${q.lng.toFixed(2)}`,
        at: q.time,
        value: q.magnitude,
        distance_km: round1(h.distanceKm),
      });
    }
  } else {
    throw new Error(`${t.threshold_type} cannot be backtested`);
  }
  const byYear = new Map<number, BacktestYear>();
  for (const { year, ...e } of events) {
    const y = byYear.get(year) ?? { year, state: 'alert' as const, events: [] };
    y.events.push(e);
    if (e.state === 'triggered') y.state = 'triggered';
    byYear.set(year, y);
  }
  const years = [...byYear.values()].sort((a, b) => a.year - b.year);
  for (const y of years) y.events.sort((a, b) => b.proximity_pct - a.proximity_pct || a.at.localeCompare(b.at));
  const covered = Math.max(0, last - first + 1);
  const fired = years.filter((y) => y.state === 'triggered').length;
  const ci = covered > 0 ? clopperPearson(fired, covered, CONFIDENCE_LEVEL) : { lower: 0, upper: 1 };
  const r4 = (x: number) => Math.round(x * 1e4) / 1e4;
  return {
    catalog,
    from_year: first,
    to_year: last,
    years_covered: covered,
    years_triggered: fired,
    years_alert: years.length - fired,
    years,
    annual_probability: {
      value: covered > 0 ? r4(fired / covered) : 0,
      lower: r4(ci.lower),
      upper: r4(ci.upper),
      level: CONFIDENCE_LEVEL,
      interval: 'clopper-pearson',
    },
  };
}
