/**
 * Event loss tables (pytools eltpy) from per-event summary records: the MELT (SampleType 1 analytical
 * mean, 2 sample statistics), the SELT (sidx -4 number of affected risks, -1 analytical mean, then
 * each sample with a loss) and the QELT (sample quantiles).
 */
import { emptyTable, floatColumn, intColumn, type OrdTable } from './ord-table.js';
import { quantileLoss } from './quantiles.js';

/** One record per (event, summary id), in event order. */
export interface SummaryRecords {
  eventId: Int32Array;
  summaryId: Int32Array;
  mean: Float64Array;
  max: Float64Array;
  exposure: Float64Array;
  /** Number of affected risks (SELT sidx -4); NaN where the perspective does not count them (ri, rl). */
  affected: Float64Array;
  /** S, the damage samples per event (0: mean rows only). */
  samples: number;
  /** Sampled losses, record-major: sampled[record * S + (sidx - 1)]. */
  sampled: Float64Array;
  length: number;
}

const MELT_COLUMNS = [
  ...['EventId', 'SummaryId', 'SampleType'].map(intColumn),
  ...[
    'EventRate',
    'ChanceOfLoss',
    'MeanLoss',
    'SDLoss',
    'MaxLoss',
    'FootprintExposure',
    'MeanImpactedExposure',
    'MaxImpactedExposure',
  ].map((n) => floatColumn(n, 6)),
];
const SELT_COLUMNS = [
  ...['EventId', 'SummaryId', 'SampleId'].map(intColumn),
  floatColumn('Loss', 2),
  floatColumn('ImpactedExposure', 2),
];
const QELT_COLUMNS = [intColumn('EventId'), intColumn('SummaryId'), floatColumn('Quantile', 6), floatColumn('Loss', 6)];

export function meltTable(r: SummaryRecords): OrdTable {
  const t = emptyTable(MELT_COLUMNS);
  const out = t.values;
  const S = r.samples;
  for (let i = 0; i < r.length; i++) {
    const x = r.exposure[i];
    // EventRate is nan without an event rate file, as in eltpy.
    out.push(r.eventId[i], r.summaryId[i], 1, NaN, 0, r.mean[i], 0, r.max[i], x, x, x);
    if (S === 0) continue;
    const m = sampleMoments(r, i);
    out.push(
      r.eventId[i],
      r.summaryId[i],
      2,
      NaN,
      m.chance,
      m.mean,
      m.sd,
      r.max[i],
      x,
      x * m.chance,
      m.nonZero > 0 ? x : 0,
    );
  }
  return t;
}

/**
 * eltpy's and pltpy's sample statistics of one record: chance of loss, mean and standard deviation over
 * the S samples. The deviation is the sample one (divided by S - 1) over every sample, the samples
 * without loss counted as 0, so a single sample with a loss among several still has a spread; it is
 * summed as deviations from the mean (two passes), as pytools does, not from the sum of squares, which
 * loses the small spreads of large losses to cancellation.
 */
export function sampleMoments(
  r: SummaryRecords,
  i: number,
): { chance: number; mean: number; sd: number; nonZero: number } {
  const S = r.samples;
  let sum = 0;
  let nonZero = 0;
  for (let s = 0; s < S; s++) {
    const v = r.sampled[i * S + s];
    sum += v;
    if (v > 0) nonZero++;
  }
  const mean = sum / S;
  let sd = 0;
  if (S > 1) {
    let squares = 0;
    for (let s = 0; s < S; s++) {
      const d = r.sampled[i * S + s] - mean;
      squares += d * d;
    }
    sd = Math.sqrt(squares / (S - 1));
  }
  return { chance: nonZero / S, mean, sd, nonZero };
}

export function seltTable(r: SummaryRecords): OrdTable {
  const t = emptyTable(SELT_COLUMNS);
  const out = t.values;
  const S = r.samples;
  for (let i = 0; i < r.length; i++) {
    const x = r.exposure[i];
    const e = r.eventId[i];
    const sid = r.summaryId[i];
    if (!Number.isNaN(r.affected[i])) out.push(e, sid, -4, r.affected[i], x);
    // A record with no loss carries no impacted exposure; zero samples are not written at all.
    out.push(e, sid, -1, r.mean[i], r.mean[i] > 0 ? x : 0);
    for (let s = 0; s < S; s++) {
      const v = r.sampled[i * S + s];
      if (v > 0) out.push(e, sid, s + 1, v, x);
    }
  }
  return t;
}

export function qeltTable(r: SummaryRecords, quantiles: number[]): OrdTable {
  const t = emptyTable(QELT_COLUMNS);
  const out = t.values;
  const S = r.samples;
  const sorted = new Float64Array(S);
  for (let i = 0; i < r.length; i++) {
    for (let s = 0; s < S; s++) sorted[s] = r.sampled[i * S + s];
    sorted.sort();
    for (const q of quantiles) out.push(r.eventId[i], r.summaryId[i], q, quantileLoss(sorted, q));
  }
  return t;
}
