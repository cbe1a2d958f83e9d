/**
 * Event and period tables built from per-event summary records (one summary set, summary ids
 * 1..S): the mean rows of the MELT (SampleType 1), the SELT records oasislmf writes without
 * sampling (sidx -4 number of affected risks, sidx -1 analytical mean), the period losses behind
 * the EP tables, and the ALT's analytical-mean row.
 */
import { f32 } from './format.js';
import type { Occurrence } from './types.js';

/** One record per (event, summary id), in event order. */
export interface SummaryRecords {
  eventId: Int32Array;
  summaryId: Int32Array;
  mean: Float64Array;
  max: Float64Array;
  exposure: Float64Array;
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

/** eltpy's sample statistics of one record: chance of loss, mean and standard deviation over the S samples. */
export function sampleMoments(r: SummaryRecords, i: number): { chance: number; mean: number; sd: number; nonZero: number } {
  const S = r.samples;
  let sum = 0;
  let sq = 0;
  let nonZero = 0;
  for (let s = 0; s < S; s++) {
    const v = r.sampled[i * S + s];
    sum += v;
    sq += v * v;
    if (v > 0) nonZero++;
  }
  let sd = 0;
  if (nonZero > 1) {
    let variance = (sq - (sum * sum) / S) / (S - 1);
    // eltpy's tolerance: a variance that is rounding noise relative to the squares is 0.
    if (variance / sq < 1e-7) variance = 0;
    sd = Math.sqrt(variance);
  }
  return { chance: nonZero / S, mean: sum / S, sd, nonZero };
}

export function seltRows(r: SummaryRecords): string[] {
  const out: string[] = [];
  const S = r.samples;
  for (let i = 0; i < r.length; i++) {
    const x = r.exposure[i];
    const head = `${r.eventId[i]},${r.summaryId[i]}`;
    out.push(`${head},-4,${f32(r.affected[i], 2)},${f32(x, 2)}`);
    // A record with no loss carries no impacted exposure; zero samples are not written at all.
    out.push(`${head},-1,${f32(r.mean[i], 2)},${f32(r.mean[i] > 0 ? x : 0, 2)}`);
    for (let s = 0; s < S; s++) {
      const v = r.sampled[i * S + s];
      if (v > 0) out.push(`${head},${s + 1},${f32(v, 2)},${f32(x, 2)}`);
    }
  }
  return out;
}

/**
 * Per summary id, the period values of the mean losses: AEP sums the events of a period, OEP takes
 * the largest. Only periods with a record appear (lec ranks those and counts the rest as zero).
 */
export function periodValues(r: SummaryRecords, occ: Occurrence): Map<number, { aep: Float64Array; oep: Float64Array }> {
  const periodsOf = new Map<number, number[]>();
  for (let i = 0; i < occ.eventId.length; i++) {
    const list = periodsOf.get(occ.eventId[i]);
    if (list) list.push(occ.period[i]);
    else periodsOf.set(occ.eventId[i], [occ.period[i]]);
  }
  const acc = new Map<number, Map<number, [number, number]>>();
  for (let i = 0; i < r.length; i++) {
    const periods = periodsOf.get(r.eventId[i]);
    if (!periods) continue;
    let bySummary = acc.get(r.summaryId[i]);
    if (!bySummary) acc.set(r.summaryId[i], (bySummary = new Map()));
    for (const p of periods) {
      const v = bySummary.get(p) ?? [0, 0];
      v[0] += r.mean[i];
      v[1] = Math.max(v[1], r.mean[i]);
      bySummary.set(p, v);
    }
  }
  const out = new Map<number, { aep: Float64Array; oep: Float64Array }>();
  for (const [sid, byPeriod] of [...acc].sort((a, b) => a[0] - b[0])) {
    const vals = [...byPeriod.values()];
    out.set(sid, { aep: Float64Array.from(vals, (v) => v[0]), oep: Float64Array.from(vals, (v) => v[1]) });
  }
  return out;
}

/** The ALT's SampleType 1 row: mean of the annual (period) losses over all P periods, and their standard deviation. */
export function paltMeanRows(values: Map<number, { aep: Float64Array }>, periods: number): string[] {
  const out: string[] = [];
  for (const [sid, { aep }] of values) {
    let sum = 0;
    let sq = 0;
    for (const v of aep) {
      sum += v;
      sq += v * v;
    }
    const mean = sum / periods;
    const variance = periods > 1 ? Math.max(0, (sq - (sum * sum) / periods) / (periods - 1)) : 0;
    out.push(`${sid},1,${f32(mean, 6)},${f32(Math.sqrt(variance), 6)}`);
  }
  return out;
}
