/**
 * Every event's state at now, kept until the next lifecycle instant: between two instants (a start, a
 * version, monitoring from, ended at, of any indexed event) no event is known, moves status or ends, so the
 * states and their counts computed once answer every request until then. On a pinned clock that is once
 * per snapshot; on a running clock about once a minute for a week of events, each an O(n) pass.
 */
import type { Snapshot } from './snapshot.js';

/** State bits: 0 = not known yet at now; else the status bit (1 active, 2 monitoring, 4 ended). */
export interface Phase {
  fromUs: number;
  untilUs: number;
  state: Uint8Array;
  /** Known events per status bit (index 1, 2, 4). */
  counts: number[];
  /** Known events per grid cell and status: cell c's active, monitoring and ended at 3c, 3c + 1, 3c + 2 (grid.ts). */
  cellCounts: Uint32Array;
  /** 1 where the event's feature at now is the variant laid out at the build (its bytes are in the arena). */
  laidOut: Uint8Array;
}

const phases = new WeakMap<Snapshot, Phase>();

export function phaseAt(s: Snapshot, nowUs: number): Phase {
  const cached = phases.get(s);
  if (cached && nowUs >= cached.fromUs && nowUs < cached.untilUs) return cached;
  const { knownUs, monitoringUs, endedUs, startedUs } = s.cols;
  const laidSlot = s.layout.slot;
  const n = knownUs.length;
  const state = new Uint8Array(n);
  const laidOut = new Uint8Array(n);
  const counts = [0, 0, 0, 0, 0];
  const cellOf = s.grid.cellOf;
  const cellCounts = new Uint32Array(3 * s.grid.keys.length);
  let fromUs = -Infinity;
  let untilUs = Infinity;
  // The phase runs from the latest instant at or before now to the first one after it.
  const edge = (t: number) => {
    if (t <= nowUs) fromUs = t > fromUs ? t : fromUs;
    else untilUs = t < untilUs ? t : untilUs;
  };
  for (let i = 0; i < n; i++) {
    edge(knownUs[i]);
    edge(monitoringUs[i]);
    edge(endedUs[i]);
    if (knownUs[i] > nowUs) continue;
    const bit = endedUs[i] <= nowUs ? 4 : monitoringUs[i] <= nowUs ? 2 : 1;
    state[i] = bit;
    counts[bit]++;
    cellCounts[3 * cellOf[i] + (bit >> 1)]++;
    // slotOf(asOf()) at now (entry.ts). Upcoming holds for the whole phase: a main entry started by the build,
    // and a side entry's start is an edge. An ended event's variant is never laid out.
    const slot = (bit === 2 ? 2 : 0) + (startedUs[i] > nowUs ? 1 : 0);
    laidOut[i] = +(bit !== 4 && slot === laidSlot[i]);
  }
  // The sort key of announced onsets moves with now too: a side entry's start or version ends the phase.
  for (const e of s.side) {
    edge(e.startedUs);
    edge(e.updatedUs);
  }
  const phase = { fromUs, untilUs, state, counts, cellCounts, laidOut };
  phases.set(s, phase);
  return phase;
}
