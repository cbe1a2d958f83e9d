/**
 * How a level's rows become nodes: numbered 1..n by first appearance in row order, and which nodes
 * were split from one node of the level below (their items enter them on their own).
 */
import { FmRows, GROUP_SPAN, ID_SPAN, NONE, type FmItems } from './fm-rows.js';

/**
 * Numbers a level's nodes. A row that found terms joins the node of its key, risk (site levels), group
 * and peril list; a row that found none passes through a node of its own previous node (or, at the
 * policy layer, of its key). Keys are numbers where they fit.
 */
export function numberLevelNodes(
  rows: FmRows,
  items: FmItems,
  keyOfItem: (item: number) => number,
  byLocation: boolean,
): void {
  const perilIds = new Map<number, number>();
  const withTerms = new Map<number, number>();
  const passing = new Map<number, Map<number, number>>();
  const byText = new Map<string, number>();
  let next = 0;
  for (let i = 0; i < rows.count; i++) {
    const item = rows.item[i];
    const key = keyOfItem(item);
    const risk = byLocation ? items.riskId[item] : 0;
    const group = rows.group[i];
    let id: number | undefined;
    // group + 1 (0 for the policy layer's pass-through, -1) takes one more slot than GROUP_SPAN: 2 * GROUP_SPAN
    // keeps the composite below 2^53 (ID_SPAN 2^26 x 2^5 x 2^16 x 2^6).
    if (group >= -1 && key >= 0 && key < ID_SPAN && risk < 2 ** 16 && group < GROUP_SPAN) {
      let peril = perilIds.get(rows.fmPeril[i]);
      if (peril === undefined) {
        peril = perilIds.size;
        perilIds.set(rows.fmPeril[i], peril);
      }
      if (peril < 64) {
        const composite = ((key * 2 * GROUP_SPAN + (group + 1)) * 2 ** 16 + risk) * 64 + peril;
        id = withTerms.get(composite);
        if (id === undefined) {
          id = ++next;
          withTerms.set(composite, id);
        }
        rows.agg[i] = id;
        continue;
      }
    }
    if (group < -1 && key >= 0 && key < ID_SPAN && risk < 2 ** 16) {
      let inner = passing.get(group);
      if (inner === undefined) {
        inner = new Map();
        passing.set(group, inner);
      }
      const k = key * 2 ** 16 + risk;
      id = inner.get(k);
      if (id === undefined) {
        id = ++next;
        inner.set(k, id);
      }
      rows.agg[i] = id;
      continue;
    }
    const text = `${key}|${risk}|${group}|${rows.fmPeril[i] === NONE ? '' : rows.fmPeril[i]}`;
    id = byText.get(text);
    if (id === undefined) {
      id = ++next;
      byText.set(text, id);
    }
    rows.agg[i] = id;
  }
}

/** Numbers nodes 1..n by first appearance of each row's account. */
export function numberAccountNodes(rows: FmRows, items: FmItems): void {
  const ids = new Map<number, number>();
  for (let i = 0; i < rows.count; i++) {
    const k = items.accId[rows.item[i]];
    let id = ids.get(k);
    if (id === undefined) {
      id = ids.size + 1;
      ids.set(k, id);
    }
    rows.agg[i] = id;
  }
}

/** A node of the previous level split over several nodes here: each item enters the split nodes on its own. */
export function markRootStarts(rows: FmRows): void {
  let maxPrev = 0;
  for (let i = 0; i < rows.count; i++) if (rows.prev[i] > maxPrev) maxPrev = rows.prev[i];
  // Node ids are dense from 1: the first node each previous node feeds, by its id (0: none yet).
  const firstAggOfPrev = new Int32Array(maxPrev + 1);
  const splitPrev = new Uint8Array(maxPrev + 1);
  let anySplit = false;
  for (let i = 0; i < rows.count; i++) {
    const p = rows.prev[i];
    const a = firstAggOfPrev[p];
    if (a === 0) firstAggOfPrev[p] = rows.agg[i];
    else if (a !== rows.agg[i]) {
      splitPrev[p] = 1;
      anySplit = true;
    }
  }
  rows.rootStart.fill(0, 0, rows.count);
  if (!anySplit) return;
  const splitAggs = new Set<number>();
  for (let i = 0; i < rows.count; i++) if (splitPrev[rows.prev[i]]) splitAggs.add(rows.agg[i]);
  for (let i = 0; i < rows.count; i++) if (splitAggs.has(rows.agg[i])) rows.rootStart[i] = 1;
}
