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
  /** `state` in the grid's members' order (grid.ts): entry k is position members[k]'s. */
  memberState: Uint8Array;
  /** Known events per status bit (index 1, 2, 4). */
  counts: number[];
  /** Known events per grid cell and status: cell c's active, monitoring and ended at 3c, 3c + 1, 3c + 2 (grid.ts). */
  cellCounts: Uint32Array;
  /**
   * What a body needs of each event, 4 numbers by position (render.ts): the offset of its feature's bytes in
   * the arena, or -1 when its variant at now is not the one laid out at the build (then made from its entry);
   * their length; its serial; its source index times 4 plus the laid-out variant's slot (slotOf(), entry.ts;
   * 0-3). One record of 32 bytes a feature: a page of scattered positions costs a cache miss per feature, not
   * one per column.
   */
  features: Float64Array;
}

/** Numbers per event in Phase.features, and their places. */
export const FEATURE_STRIDE = 4;
export const F_AT = 0;
export const F_LENGTH = 1;
export const F_SERIAL = 2;
export const F_SOURCE_SLOT = 3;

const phases = new WeakMap<Snapshot, Phase>();

export function phaseAt(s: Snapshot, nowUs: number): Phase {
  const cached = phases.get(s);
  if (cached && nowUs >= cached.fromUs && nowUs < cached.untilUs) return cached;
  const { knownUs, monitoringUs, endedUs, startedUs, serial, source } = s.cols;
  const { at: laidAt, length: laidLength, slot: laidSlot } = s.layout;
  const n = knownUs.length;
  const state = new Uint8Array(n);
  const features = new Float64Array(FEATURE_STRIDE * n);
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
    const r = FEATURE_STRIDE * i;
    features[r + F_AT] = -1;
    features[r + F_SERIAL] = serial[i];
    features[r + F_SOURCE_SLOT] = 4 * source[i] + (laidSlot[i] & 3);
    if (knownUs[i] > nowUs) continue;
    const bit = endedUs[i] <= nowUs ? 4 : monitoringUs[i] <= nowUs ? 2 : 1;
    state[i] = bit;
    counts[bit]++;
    cellCounts[3 * cellOf[i] + (bit >> 1)]++;
    // slotOf(asOf()) at now (entry.ts). Upcoming holds for the whole phase: a main entry started by the build,
    // and a side entry's start is an edge. An ended event's variant is never laid out.
    const slot = (bit === 2 ? 2 : 0) + (startedUs[i] > nowUs ? 1 : 0);
    if (bit !== 4 && slot === laidSlot[i]) {
      features[r + F_AT] = laidAt[i];
      features[r + F_LENGTH] = laidLength[i];
    }
  }
  // The sort key of announced onsets moves with now too: a side entry's start or version ends the phase.
  for (const e of s.side) {
    edge(e.startedUs);
    edge(e.updatedUs);
  }
  const memberState = Uint8Array.from(s.grid.members, (i) => state[i]);
  const phase = { fromUs, untilUs, state, memberState, counts, cellCounts, features };
  phases.set(s, phase);
  return phase;
}
