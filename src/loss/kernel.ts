/**
 * The event loop (EventKernel below): typed arrays throughout, nothing allocated per item or event.
 * A large run is shared between threads by kernel-threads.ts.
 */
import type { SummaryRecords } from './domain/elt.js';
import { InsuredTotal, type InsuredPlan } from './fm/insured-total.js';
import { ReinsuranceChain, type ReinsurancePlan } from './fm/reinsurance-chain.js';
import { CARRIED_TOTALS, type EventCarry } from './domain/event-carry.js';
import { EventGul } from './domain/gul.js';
import type { GulContext, SampleContext } from './domain/kernel-inputs.js';
import { EventSampler } from './domain/sample.js';
import { KernelModule } from './wasm/kernel-module.js';

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
  /** The direct insurance programme (fm files), for the il records. */
  plan?: InsuredPlan;
  /** The reinsurance inuring levels, run on the insured losses per output (needs a per-item plan). */
  reinsurance?: ReinsurancePlan;
  /**
   * Ground-up sums carried on from the previous chunk of a book's items (domain/event-carry.ts): the run
   * adds its items to them and leaves them there, making no record. Ground-up only (no plan).
   */
  carry?: EventCarry;
  progress?: (done: number, total: number, message: string) => void;
}

export interface KernelOutput {
  gul: SummaryRecords;
  il: SummaryRecords;
  /** Net of every reinsurance level (with a reinsurance plan). */
  ri?: SummaryRecords;
  /** Taken by each reinsurance level (with a reinsurance plan that asks for it). */
  rl?: SummaryRecords[];
}

/** Empty records for every perspective the input computes. */
export function kernelRecords(k: KernelInput, capacity: number): KernelOutput {
  const S = k.sample?.samples ?? 0;
  const out: KernelOutput = { gul: records(capacity, S), il: records(capacity, S) };
  if (k.reinsurance) {
    out.ri = records(capacity, S);
    out.rl = k.reinsurance.ceded ? k.reinsurance.levels.map(() => records(capacity, S)) : [];
  }
  return out;
}

/** The records of an output as one list, gul and il first (how threads hand them back and merge them). */
export function recordLists(out: KernelOutput): SummaryRecords[] {
  return [out.gul, out.il, ...(out.ri ? [out.ri] : []), ...(out.rl ?? [])];
}

/** Item-events of the run: the work the kernel's loops do, known before running them. */
export function kernelWork(k: KernelInput): number {
  const { footprint: fp, itemsByAreaperil: byAp } = k.gul;
  let work = 0;
  for (const eventId of k.events) {
    const range = fp.byEvent.get(eventId);
    if (!range) continue;
    for (let r = range[0]; r < range[1]; r++) work += byAp.get(fp.areaperil[r])?.length ?? 0;
  }
  return work * Math.max(1, k.sample?.samples ?? 0);
}

/**
 * Runs the kernel over the events, or, given `nextBlock`, over the blocks of `block` events it hands out
 * (block b: events b * block .. (b + 1) * block - 1) until it answers one past the last: how the threads
 * of kernel-threads.ts share a run. Records come in the order the events are run.
 */
export function runKernel(k: KernelInput, nextBlock?: () => number, block = 1): KernelOutput {
  const kernel = new EventKernel(k);
  const n = k.events.length;
  const out = kernelRecords(k, n);
  const claim =
    nextBlock ??
    (
      (b = 0) =>
      () =>
        b < n ? b++ : n
    )();
  let reported = 0;
  for (let b = claim(); b * block < n; b = claim()) {
    const end = Math.min(n, (b + 1) * block);
    for (let e = b * block; e < end; e++) kernel.event(k.events[e], out, e);
    if (reported === 0 || end - reported >= 1024) k.progress?.((reported = end), n, 'events');
  }
  k.progress?.(n, n, 'events');
  return out;
}

/** Appends one event's summary record (summary 1) and returns its index; the caller fills its samples. */
function pushRecord(
  to: SummaryRecords,
  eventId: number,
  mean: number,
  max: number,
  exposure: number,
  affected: number,
): number {
  const j = to.length++;
  to.eventId[j] = eventId;
  to.summaryId[j] = 1;
  to.mean[j] = mean;
  to.max[j] = max;
  to.exposure[j] = exposure;
  to.affected[j] = affected;
  return j;
}

/**
 * One event at a time: the ground-up mean and maximum per item (domain/gul.ts), the sampled losses
 * (domain/sample.ts), gul_alloc_rule 1 on the samples, then the insured loss of every one of them
 * through the financial module, each appended as one summary record (summary sets over all risks).
 * Every loop runs over the items the event reaches, in item order.
 */
export class EventKernel {
  private readonly module: KernelModule;
  private readonly gulEvent: EventGul;
  private readonly sampler?: EventSampler;
  private readonly insured?: InsuredTotal;
  private readonly chain?: ReinsuranceChain;
  private readonly S: number;
  private readonly n: number;
  /** The sampled losses (items x samples: item i's sample s at i * S + s), in the module's memory. */
  private readonly sampled: Float64Array;
  private readonly exposure: Float64Array;
  private readonly covSum: Float64Array;
  private readonly coverageSeen: Uint8Array;
  private readonly hitOnCoverage: Float64Array;
  /** Item ids ascending in item order: the financial module can then take the reached items as they are listed. */
  private readonly idsAscending: boolean;
  private readonly byItem: Float64Array;
  /** Whether the records are made by the module's fused passes (records() otherwise). */
  private readonly fused: boolean;

  constructor(private readonly k: KernelInput) {
    const { items, tiv } = k.gul;
    this.S = k.sample?.samples ?? 0;
    const n = (this.n = items.itemId.length);
    let ascending = true;
    let maxItemId = 0;
    for (let i = 0; i < n; i++) {
      if (i > 0 && items.itemId[i] <= items.itemId[i - 1]) ascending = false;
      maxItemId = Math.max(maxItemId, items.itemId[i]);
    }
    this.idsAscending = ascending;
    this.fused = ascending;
    if (k.carry && (!ascending || k.plan || k.reinsurance))
      throw new Error('a carried run is ground-up only, on items whose ids ascend with their order');
    const levelOne = this.fused ? k.plan?.levelOne : undefined;
    this.module = new KernelModule(k.gul, k.sample, levelOne, this.fused && k.gul.allocRule === 1);
    this.gulEvent = new EventGul(k.gul, this.module);
    this.sampler = k.sample && new EventSampler(k.sample, this.module);
    this.insured = k.plan && new InsuredTotal(k.plan, 3 + this.S, this.module.levelOneVectors);
    if (k.reinsurance) {
      if (!k.plan?.perItem) throw new Error('reinsurance needs the insured losses per output (a per-item plan)');
      this.chain = new ReinsuranceChain(k.reinsurance, 3 + this.S);
    }
    this.sampled = this.module.views.losses;
    // records()'s own arrays (the fused passes keep theirs in the module).
    const unfused = this.fused ? 0 : 1;
    this.exposure = new Float64Array(n * unfused);
    this.covSum = new Float64Array(tiv.length * unfused);
    this.coverageSeen = new Uint8Array(tiv.length * unfused);
    this.hitOnCoverage = new Float64Array(tiv.length * unfused);
    this.byItem = new Float64Array(ascending ? 0 : maxItemId + 1);
  }

  /**
   * Appends the event's records to each perspective (none when the event touches no item); with a carry,
   * adds to the carried sums of the event at `position` in the run's events instead.
   */
  event(eventId: number, out: KernelOutput, position: number): void {
    const ev = this.gulEvent;
    const touched = ev.compute(eventId, !this.fused);
    if (touched) {
      if (this.k.carry) this.carried(eventId, position, this.k.carry);
      else if (this.fused) this.recordsFused(eventId, out.gul, out.il);
      else this.records(eventId, out.gul, out.il);
      if (this.chain) this.reinsured(eventId, out);
    }
    this.clear();
  }

  /**
   * The event's ri and rl records: the insured losses per output (the engine on the items the kernel
   * handed over, still in level 1's buffers) through the reinsurance levels. The number of affected
   * risks is not counted (NaN: no SELT sidx -4 rows): Oasis summarises reinsurance outputs without the
   * risk map that counts them.
   */
  private reinsured(eventId: number, out: KernelOutput): void {
    const affected = NaN;
    const S = this.S;
    const result = this.chain!.run(this.insured!.outputs());
    const push = (to: SummaryRecords, v: Float64Array) => {
      const j = pushRecord(to, eventId, v[0], v[1], v[2], affected);
      for (let s = 0; s < S; s++) to.sampled[j * S + s] = v[3 + s];
    };
    push(out.ri!, result.net);
    result.ceded.forEach((v, n) => push(out.rl![n], v));
  }

  /**
   * records() in two passes over the reached items, in the kernel's module (assembly/records.ts),
   * instead of one per sum: sum each coverage (from zeros: clear() leaves the sums so), then cap
   * (gul_alloc_rule 1, on the mean and maximum too, which compute() then leaves to it), add up and
   * aggregate every loss vector (mean, max, exposure, each sample) into level 1 of the financial module.
   * Each sum gets the same terms in the same order as in records(), so the same bits. Taken when item ids
   * ascend with item order. The financial module (src/loss/fm) takes level 1's sums to the top.
   */
  private recordsFused(eventId: number, gul: SummaryRecords, il: SummaryRecords): void {
    const S = this.S;
    const { wasm, views } = this.module;
    const rule1 = this.k.gul.allocRule === 1 ? 1 : 0;
    if (this.sampler) this.sampler.sampleEvent(eventId);
    wasm.sumCoverages(rule1);
    const insured = this.insured;
    insured?.clear();
    wasm.addUp(rule1, insured ? 1 : 0, 0);
    insured?.reachedItems(this.gulEvent.reached, this.gulEvent.count, this.k.gul.items.itemId);
    const totals = views.eventTotals;
    const affected = this.affectedRisks() ?? totals[3];
    const g = pushRecord(gul, eventId, totals[0], totals[1], totals[2], affected);
    for (let s = 0; s < S; s++) gul.sampled[g * S + s] = views.sampleSums[s];
    if (insured) {
      const t = insured.total();
      const j = pushRecord(il, eventId, t[0], t[1], t[2], affected);
      for (let s = 0; s < S; s++) il.sampled[j * S + s] = t[3 + s];
    }
  }

  /**
   * recordsFused's ground-up sums, started from the carry's (when an earlier chunk reached the event) and
   * left in it. Affected risks lie in one chunk each (a chunk holds whole locations), so their counts add.
   */
  private carried(eventId: number, at: number, carry: EventCarry): void {
    const S = this.S;
    const { wasm, views } = this.module;
    const rule1 = this.k.gul.allocRule === 1 ? 1 : 0;
    const t = at * CARRIED_TOTALS;
    const before = carry.reached[at] ? carry.totals[t + 3] : 0;
    if (carry.reached[at]) {
      views.eventTotals.set(carry.totals.subarray(t, t + CARRIED_TOTALS));
      views.sampleSums.set(carry.sums.subarray(at * S, (at + 1) * S));
    }
    if (this.sampler) this.sampler.sampleEvent(eventId);
    wasm.sumCoverages(rule1);
    wasm.addUp(rule1, 0, carry.reached[at]);
    const risks = this.affectedRisks();
    carry.totals.set(views.eventTotals.subarray(0, CARRIED_TOTALS), t);
    if (risks !== undefined) carry.totals[t + 3] = before + risks;
    carry.sums.set(views.sampleSums.subarray(0, S), at * S);
    carry.reached[at] = 1;
  }

  private records(eventId: number, gul: SummaryRecords, il: SummaryRecords): void {
    const { S, sampled, exposure, coverageSeen, hitOnCoverage } = this;
    const ev = this.gulEvent;
    const { reached, count, hit } = ev;
    const { items, tiv } = this.k.gul;
    const cov = items.coverageId;
    for (let k = 0; k < count; k++) {
      const c = cov[reached[k]];
      coverageSeen[c] = 0;
      hitOnCoverage[c] = 0;
    }
    for (let k = 0; k < count; k++) if (hit[reached[k]]) hitOnCoverage[cov[reached[k]]]++;
    // gulmc's TIV record per item: the coverage TIV shared by the items the event reaches on it.
    let mean = 0;
    let max = 0;
    let exposed = 0;
    let affected = 0;
    for (let k = 0; k < count; k++) {
      const i = reached[k];
      if (!hit[i]) continue;
      const c = cov[i];
      mean += ev.mean[i];
      max += ev.max[i];
      exposure[i] = this.k.gul.allocRule === 1 ? tiv[c] / hitOnCoverage[c] : tiv[c];
      if (!coverageSeen[c]) {
        coverageSeen[c] = 1;
        exposed += tiv[c];
        affected++;
      }
    }
    if (this.sampler) {
      this.sampler.sampleEvent(eventId);
      if (this.k.gul.allocRule === 1) this.capSamples();
    }
    affected = this.affectedRisks() ?? affected;
    const g = pushRecord(gul, eventId, mean, max, exposed, affected);
    for (let s = 0; s < S; s++) {
      let sum = 0;
      for (let k = 0; k < count; k++) sum += sampled[reached[k] * S + s];
      gul.sampled[g * S + s] = sum;
    }
    if (this.insured) {
      this.insured.clear();
      this.levelOne(0, ev.mean, 0);
      this.levelOne(1, ev.max, 0);
      this.levelOne(2, exposure, 0);
      for (let s = 0; s < S; s++) this.levelOne(3 + s, sampled, s, S);
      const t = this.insured.total();
      const j = pushRecord(il, eventId, t[0], t[1], t[2], affected);
      for (let s = 0; s < S; s++) il.sampled[j * S + s] = t[3 + s];
    }
  }

  /**
   * The number of affected risks as Oasis counts it: the distinct (location, building) pairs of the event's
   * hit items (an item the map does not name counts on its own). Undefined without a risk map.
   */
  private affectedRisks(): number | undefined {
    const risks = this.k.gul.risks;
    if (!risks) return undefined;
    const { reached, count, hit } = this.gulEvent;
    const seen = (this.riskSeen ??= new Uint8Array(risks.risks));
    let n = 0;
    for (let j = 0; j < count; j++) {
      const i = reached[j];
      if (!hit[i]) continue;
      const r = risks.riskOf[i];
      if (r < 0) n++;
      else if (!seen[r]) {
        seen[r] = 1;
        n++;
      }
    }
    for (let j = 0; j < count; j++) {
      const r = risks.riskOf[reached[j]];
      if (r >= 0) seen[r] = 0;
    }
    return n;
  }

  private riskSeen?: Uint8Array;

  /** Adds loss vector k of the event's hit items (values[offset + item index * stride]) into level 1 of the programme. */
  private levelOne(k: number, values: Float64Array, offset: number, stride = 1): void {
    const ev = this.gulEvent;
    const ids = this.k.gul.items.itemId;
    if (this.idsAscending) return this.insured!.addItems(k, ev.reached, ev.count, ev.hit, ids, values, offset, stride);
    const byItem = this.byItem;
    byItem.fill(0);
    for (let j = 0; j < ev.count; j++) {
      const i = ev.reached[j];
      if (ev.hit[i]) byItem[ids[i]] = values[offset + i * stride];
    }
    this.insured!.addByItemId(k, byItem);
  }

  /** gul_alloc_rule 1 on each sample: a coverage's items together never exceed its TIV. */
  private capSamples(): void {
    const { S, sampled, covSum: sum } = this;
    const { reached, count } = this.gulEvent;
    const cov = this.k.gul.items.coverageId;
    const tiv = this.k.gul.tiv;
    for (let s = 0; s < S; s++) {
      for (let k = 0; k < count; k++) sum[cov[reached[k]]] = 0;
      for (let k = 0; k < count; k++) sum[cov[reached[k]]] += sampled[reached[k] * S + s];
      for (let k = 0; k < count; k++) {
        const i = reached[k];
        const c = cov[i];
        if (sum[c] > tiv[c]) sampled[i * S + s] *= tiv[c] / sum[c];
      }
    }
  }

  /** Back to zeros for everything the event wrote (per item and per coverage), and no item reached. */
  private clear(): void {
    this.module.wasm.clearEvent(this.fused && this.k.gul.allocRule === 1 ? 1 : 0);
    this.gulEvent.count = 0;
  }
}
