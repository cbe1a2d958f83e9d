/**
 * The event loop: for each event, the ground-up mean and maximum per item (domain/gul.ts), the
 * sampled losses (domain/sample.ts), gul_alloc_rule 1 on the samples, then the insured loss of
 * every one of them through the financial module, summed into one summary record per event
 * (summary sets over all risks). Typed arrays throughout; nothing is allocated per item.
 */
import type { SummaryRecords } from './domain/elt.js';
import { insuredLoss, type FmPlan } from './domain/fm.js';
import { gulForEvent, type GulContext, type GulEvent } from './domain/gul.js';
import { sampleEvent, type SampleContext } from './domain/sample.js';

export function records(capacity: number, samples: number): SummaryRecords {
  return {
    eventId: new Int32Array(capacity),
    summaryId: new Int32Array(capacity),
    mean: new Float64Array(capacity),
    max: new Float64Array(capacity),
    exposure: new Float64Array(capacity),
    affected: new Float64Array(capacity),
    samples,
    sampled: new Float64Array(capacity * samples),
    length: 0,
  };
}

export interface KernelInput {
  events: Int32Array;
  gul: GulContext;
  sample?: SampleContext;
  plan?: FmPlan;
  progress?: (done: number, total: number, message: string) => void;
}

export function runKernel(k: KernelInput): { gul: SummaryRecords; il: SummaryRecords } {
  const { items, tiv } = k.gul;
  const S = k.sample?.samples ?? 0;
  const n = items.itemId.length;
  let maxItemId = 0;
  for (const id of items.itemId) maxItemId = Math.max(maxItemId, id);
  const ev: GulEvent = { touched: false, mean: new Float64Array(n), max: new Float64Array(n), hit: new Uint8Array(n) };
  const scratch = { mean: new Float64Array(tiv.length), max: new Float64Array(tiv.length) };
  const covSum = new Float64Array(tiv.length);
  const coverageSeen = new Uint8Array(tiv.length);
  const hitOnCoverage = new Float64Array(tiv.length);
  const sampled = new Float64Array(S * n);
  const byItem = new Float64Array(maxItemId + 1);
  const gul = records(k.events.length, S);
  const il = records(k.events.length, S);
  const fm = (values: Float64Array, offset: number): number => {
    byItem.fill(0);
    for (let i = 0; i < n; i++) if (ev.hit[i]) byItem[items.itemId[i]] = values[offset + i];
    return insuredLoss(k.plan!, byItem);
  };

  for (let e = 0; e < k.events.length; e++) {
    const eventId = k.events[e];
    gulForEvent(k.gul, eventId, ev, scratch);
    if (!ev.touched) continue;
    coverageSeen.fill(0);
    hitOnCoverage.fill(0);
    for (let i = 0; i < n; i++) if (ev.hit[i]) hitOnCoverage[items.coverageId[i]]++;
    // gulmc's TIV record per item: the coverage TIV shared by the items the event reaches on it.
    const exposure = new Float64Array(n);
    let mean = 0;
    let max = 0;
    let exposed = 0;
    let affected = 0;
    for (let i = 0; i < n; i++) {
      if (!ev.hit[i]) continue;
      const c = items.coverageId[i];
      mean += ev.mean[i];
      max += ev.max[i];
      exposure[i] = k.gul.allocRule === 1 ? tiv[c] / hitOnCoverage[c] : tiv[c];
      if (!coverageSeen[c]) {
        coverageSeen[c] = 1;
        exposed += tiv[c];
        affected++;
      }
    }
    if (k.sample) {
      sampleEvent(k.sample, eventId, sampled);
      if (k.gul.allocRule === 1) capSamples(sampled, S, n, items.coverageId, tiv, covSum);
    }
    const g = gul.length++;
    gul.eventId[g] = eventId;
    gul.summaryId[g] = 1;
    gul.mean[g] = mean;
    gul.max[g] = max;
    gul.exposure[g] = exposed;
    gul.affected[g] = affected;
    for (let s = 0; s < S; s++) {
      let sum = 0;
      for (let i = 0; i < n; i++) sum += sampled[s * n + i];
      gul.sampled[g * S + s] = sum;
    }
    if (k.plan) {
      const j = il.length++;
      il.eventId[j] = eventId;
      il.summaryId[j] = 1;
      il.mean[j] = fm(ev.mean, 0);
      il.max[j] = fm(ev.max, 0);
      il.exposure[j] = fm(exposure, 0);
      il.affected[j] = affected;
      for (let s = 0; s < S; s++) il.sampled[j * S + s] = fm(sampled, s * n);
    }
    if ((e & 1023) === 0) k.progress?.(e, k.events.length, 'events');
  }
  k.progress?.(k.events.length, k.events.length, 'events');
  return { gul, il };
}

/** gul_alloc_rule 1 on each sample: a coverage's items together never exceed its TIV. */
function capSamples(sampled: Float64Array, S: number, n: number, coverageId: Int32Array, tiv: Float64Array, sum: Float64Array): void {
  for (let s = 0; s < S; s++) {
    const o = s * n;
    sum.fill(0);
    for (let i = 0; i < n; i++) sum[coverageId[i]] += sampled[o + i];
    for (let i = 0; i < n; i++) {
      const c = coverageId[i];
      if (sum[c] > tiv[c]) sampled[o + i] *= tiv[c] / sum[c];
    }
  }
}
