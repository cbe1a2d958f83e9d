/**
 * Ground-up sums carried from one chunk of a book's items to the next (a book too large for one pass,
 * src/epcurve/chunked-book.ts). An event's record is one sum over the items it reaches, in item order,
 * from zero: run on consecutive chunks of the items, each chunk continuing the sums where the previous
 * one left them, the last chunk ends with the same sums, to the bit, as one pass over every item. The
 * carry holds, per event of the run (by its position in the run's event list): whether any chunk reached
 * it, its mean, maximum, exposed TIV and affected risks, and its sum per sample. The arrays live in
 * shared memory: the kernel's threads each carry the events of the blocks they take.
 */
import type { SummaryRecords } from './elt.js';

/** Per event: mean, max, exposure, affected. */
export const CARRIED_TOTALS = 4;

export interface EventCarry {
  /** The run's events (the carry's positions); every chunk runs these, in this order. */
  readonly events: Int32Array;
  readonly samples: number;
  /** 1 once some chunk's items were reached by the event. */
  readonly reached: Uint8Array;
  /** CARRIED_TOTALS per event. */
  readonly totals: Float64Array;
  /** `samples` per event. */
  readonly sums: Float64Array;
}

export function eventCarry(events: Int32Array, samples: number): EventCarry {
  const n = events.length;
  const shared = (bytes: number) => new SharedArrayBuffer(Math.max(8, bytes));
  return {
    events,
    samples,
    reached: new Uint8Array(shared(n), 0, n),
    totals: new Float64Array(shared(8 * n * CARRIED_TOTALS), 0, n * CARRIED_TOTALS),
    sums: new Float64Array(shared(8 * n * samples), 0, n * samples),
  };
}

/** A carry of its own with the same sums (a run that from now on carries on apart from this one). */
export function copyOfCarry(c: EventCarry): EventCarry {
  const copy = eventCarry(c.events, c.samples);
  copy.reached.set(c.reached);
  copy.totals.set(c.totals);
  copy.sums.set(c.sums);
  return copy;
}

/** Whether a later chunk's run may carry on this carry: the same events, in the same order, and samples. */
export function carriesOn(c: EventCarry, events: Int32Array, samples: number): boolean {
  if (c.samples !== samples || c.events.length !== events.length) return false;
  for (let i = 0; i < events.length; i++) if (c.events[i] !== events[i]) return false;
  return true;
}

/** The carried sums as records (summary 1), in the run's event order, one per event some chunk reached: what one pass would have made. */
export function carriedRecords(c: EventCarry, into: SummaryRecords): SummaryRecords {
  const S = c.samples;
  for (let e = 0; e < c.events.length; e++) {
    if (!c.reached[e]) continue;
    const j = into.length++;
    const t = e * CARRIED_TOTALS;
    into.eventId[j] = c.events[e];
    into.summaryId[j] = 1;
    into.mean[j] = c.totals[t];
    into.max[j] = c.totals[t + 1];
    into.exposure[j] = c.totals[t + 2];
    into.affected[j] = c.totals[t + 3];
    into.sampled.set(c.sums.subarray(e * S, (e + 1) * S), j * S);
  }
  return into;
}
