/**
 * A live event's loss band from the kernel's per-event records: every (member, damage sample) pair is one
 * equally likely outcome, a member with no record losing nothing; the band is their mean and the 10th,
 * 50th and 90th percentiles (linear between order statistics). Without damage samples each member's
 * analytical mean is its one outcome.
 */
import type { SummaryRecords } from '../loss/domain/elt.js';

export interface LossBand {
  mean: number;
  p10: number;
  p50: number;
  p90: number;
}

/** The outcomes of events `eventIds` (summary 1), member-major. */
export function outcomesOf(r: SummaryRecords, eventIds: readonly number[]): Float64Array {
  const S = Math.max(1, r.samples);
  const at = new Map<number, number>();
  for (let i = 0; i < r.length; i++) if (r.summaryId[i] === 1) at.set(r.eventId[i], i);
  const out = new Float64Array(eventIds.length * S);
  eventIds.forEach((e, k) => {
    const i = at.get(e);
    if (i === undefined) return;
    for (let s = 0; s < S; s++) out[k * S + s] = r.samples > 0 ? r.sampled[i * r.samples + s] : r.mean[i];
  });
  return out;
}

function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  const x = q * (sorted.length - 1);
  const lo = Math.floor(x);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (x - lo);
}

export function lossBand(outcomes: Float64Array): LossBand {
  const sorted = Float64Array.from(outcomes).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    mean: sorted.length ? sum / sorted.length : 0,
    p10: quantile(sorted, 0.1),
    p50: quantile(sorted, 0.5),
    p90: quantile(sorted, 0.9),
  };
}

/** The analytical mean loss of one event (0 without a record). */
export function eventMean(r: SummaryRecords, eventId: number): number {
  for (let i = 0; i < r.length; i++) if (r.eventId[i] === eventId && r.summaryId[i] === 1) return r.mean[i];
  return 0;
}
