/**
 * Basis risk of a parametric trigger against a book (docs/basis-risk.md), pure: given, for every event of a
 * stochastic catalog, the value the trigger's rule reads at its site (null when nothing came inside the
 * circle) and the book's loss from the loss kernel, count how often the trigger pays when the loss reaches
 * a chosen level (hits), how often it does not (misses) and how often it pays when the loss stays below
 * (false alarms), the correlation of payout and loss, and the same counts at other thresholds (the sweep).
 * Whether a value pays is the live rule's own test (rules.ts firesAt), so a catalog event fires exactly when
 * the live trigger would on the same track.
 */
import { firesAt } from '../../domain/rules.js';
import type { ThresholdType } from '../../domain/types.js';

export interface EventOutcome {
  eventId: number;
  /** The value the trigger's rule reads at its site for this event; null when nothing came inside the circle. */
  value: number | null;
  /** The book's loss from this event (the kernel's analytical mean, ground-up). */
  loss: number;
}

export interface Contingency {
  threshold: number;
  /** Pays, and the loss reached the level. */
  hits: number;
  /** Does not pay, and the loss reached the level. */
  misses: number;
  /** Pays, and the loss stayed below the level. */
  false_alarms: number;
  /** Share of the events with a loss at the level that pay (probability of detection); null without any. */
  hit_rate: number | null;
  /** 1 − hit_rate: share of the events with a loss at the level that do not pay; null without any. */
  miss_rate: number | null;
  /** Share of the payouts whose loss stayed below the level (false-alarm ratio); null when it never pays. */
  false_alarm_rate: number | null;
  /** hits / (hits + misses + false alarms): 1 when payouts and losses coincide exactly; null when neither happens. */
  critical_success_index: number | null;
  /** Events a year that pay, and events a year with a loss at the level. */
  payouts_per_year: number;
  loss_events_per_year: number;
}

const ratio = (a: number, b: number) => (b > 0 ? a / b : null);

export function contingency(
  events: readonly EventOutcome[],
  type: ThresholdType,
  threshold: number,
  lossLevel: number,
  years: number,
): Contingency {
  let hits = 0;
  let misses = 0;
  let falseAlarms = 0;
  for (const e of events) {
    const pays = firesAt(type, e.value, threshold);
    const loses = e.loss >= lossLevel;
    if (pays && loses) hits++;
    else if (loses) misses++;
    else if (pays) falseAlarms++;
  }
  return {
    threshold,
    hits,
    misses,
    false_alarms: falseAlarms,
    hit_rate: ratio(hits, hits + misses),
    miss_rate: ratio(misses, hits + misses),
    false_alarm_rate: ratio(falseAlarms, hits + falseAlarms),
    critical_success_index: ratio(hits, hits + misses + falseAlarms),
    payouts_per_year: (hits + falseAlarms) / years,
    loss_events_per_year: (hits + misses) / years,
  };
}

/**
 * Pearson's correlation of the payout (1 when the trigger pays, else 0) and the loss, over the events that
 * concern either: the trigger read a value (the event came inside its circle) or the book lost something.
 * Events that touch neither are left out: they would add (0, 0) points in the thousands and say nothing
 * about this pair. Null when either side does not vary.
 */
export function payoutLossCorrelation(
  events: readonly EventOutcome[],
  type: ThresholdType,
  threshold: number,
): { correlation: number | null; events: number } {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const e of events) {
    if (e.value === null && !(e.loss > 0)) continue;
    xs.push(firesAt(type, e.value, threshold) ? 1 : 0);
    ys.push(e.loss);
  }
  const n = xs.length;
  if (n < 2) return { correlation: null, events: n };
  const mx = xs.reduce((s, x) => s + x, 0) / n;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i] - mx) * (ys[i] - my);
    sxx += (xs[i] - mx) ** 2;
    syy += (ys[i] - my) ** 2;
  }
  return { correlation: sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : null, events: n };
}

/** The thresholds a sweep tries for each type: its plausible range in the type's own steps, and the trigger's own. */
function sweepThresholds(type: ThresholdType, current: number): number[] {
  const range = (from: number, to: number, step: number) => {
    const out: number[] = [];
    for (let k = 0; from + k * step <= to + 1e-9; k++) out.push(Math.round((from + k * step) * 10) / 10);
    return out;
  };
  const base =
    type === 'wind_speed_kt'
      ? range(30, 180, 5)
      : type === 'central_pressure_mb'
        ? range(880, 1005, 5)
        : type === 'magnitude'
          ? range(4.5, 8.5, 0.1)
          : [];
  return [...new Set([...base, current])].sort((a, b) => a - b);
}

export interface Sweep {
  rows: Contingency[];
  /** The threshold with the fewest misses and false alarms together (ties: the higher critical success index, then the one nearest the trigger's). */
  best: Contingency;
}

export function thresholdSweep(
  events: readonly EventOutcome[],
  type: ThresholdType,
  current: number,
  lossLevel: number,
  years: number,
): Sweep {
  const rows = sweepThresholds(type, current).map((x) => contingency(events, type, x, lossLevel, years));
  const errors = (c: Contingency) => c.misses + c.false_alarms;
  const best = rows.reduce((a, b) => {
    if (errors(b) !== errors(a)) return errors(b) < errors(a) ? b : a;
    const ca = a.critical_success_index ?? -1;
    const cb = b.critical_success_index ?? -1;
    if (cb !== ca) return cb > ca ? b : a;
    return Math.abs(b.threshold - current) < Math.abs(a.threshold - current) ? b : a;
  });
  return { rows, best };
}
