/**
 * Event loss tables (pytools eltpy) from per-event summary records: the MELT (SampleType 1 analytical
 * mean, 2 sample statistics), the SELT (sidx -4 number of affected risks, -1 analytical mean, then
 * each sample with a loss) and the QELT (sample quantiles).
 */
import { f32 } from './format.js';
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

export const MELT_HEADER = 'EventId,SummaryId,SampleType,EventRate,ChanceOfLoss,MeanLoss,SDLoss,MaxLoss,FootprintExposure,MeanImpactedExposure,MaxImpactedExposure';
export const SELT_HEADER = 'EventId,SummaryId,SampleId,Loss,ImpactedExposure';
export const EPT_HEADER = 'SummaryId,EPCalc,EPType,ReturnPeriod,Loss';
export const PALT_HEADER = 'SummaryId,SampleType,MeanLoss,SDLoss';
export const QELT_HEADER = 'EventId,SummaryId,Quantile,Loss';

export function meltRows(r: SummaryRecords): string[] {
  const out: string[] = [];
  const S = r.samples;
  for (let i = 0; i < r.length; i++) {
    const x = r.exposure[i];
    const head = `${r.eventId[i]},${r.summaryId[i]}`;
    // EventRate is nan without an event rate file, as in eltpy.
    out.push(`${head},1,nan,${f32(0, 6)},${f32(r.mean[i], 6)},${f32(0, 6)},${f32(r.max[i], 6)},${f32(x, 6)},${f32(x, 6)},${f32(x, 6)}`);
    if (S === 0) continue;
    const m = sampleMoments(r, i);
    out.push(`${head},2,nan,${f32(m.chance, 6)},${f32(m.mean, 6)},${f32(m.sd, 6)},${f32(r.max[i], 6)},${f32(x, 6)},${f32(x * m.chance, 6)},${f32(m.nonZero > 0 ? x : 0, 6)}`);
  }
  return out;
}

/**
 * eltpy's and pltpy's sample statistics of one record: chance of loss, mean and standard deviation over
 * the S samples. The deviation is the sample one (divided by S - 1) over every sample, the samples
 * without loss counted as 0, so a single sample with a loss among several still has a spread; it is
 * summed as deviations from the mean (two passes), as pytools does, not from the sum of squares, which
 * loses the small spreads of large losses to cancellation.
 */
export function sampleMoments(r: SummaryRecords, i: number): { chance: number; mean: number; sd: number; nonZero: number } {
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

export function seltRows(r: SummaryRecords): string[] {
  const out: string[] = [];
  const S = r.samples;
  for (let i = 0; i < r.length; i++) {
    const x = r.exposure[i];
    const head = `${r.eventId[i]},${r.summaryId[i]}`;
    if (!Number.isNaN(r.affected[i])) out.push(`${head},-4,${f32(r.affected[i], 2)},${f32(x, 2)}`);
    // A record with no loss carries no impacted exposure; zero samples are not written at all.
    out.push(`${head},-1,${f32(r.mean[i], 2)},${f32(r.mean[i] > 0 ? x : 0, 2)}`);
    for (let s = 0; s < S; s++) {
      const v = r.sampled[i * S + s];
      if (v > 0) out.push(`${head},${s + 1},${f32(v, 2)},${f32(x, 2)}`);
    }
  }
  return out;
}

export function qeltRows(r: SummaryRecords, quantiles: number[]): string[] {
  const out: string[] = [];
  const S = r.samples;
  const sorted = new Float64Array(S);
  for (let i = 0; i < r.length; i++) {
    for (let s = 0; s < S; s++) sorted[s] = r.sampled[i * S + s];
    sorted.sort();
    for (const q of quantiles) out.push(`${r.eventId[i]},${r.summaryId[i]},${f32(q, 6)},${f32(quantileLoss(sorted, q), 6)}`);
  }
  return out;
}
