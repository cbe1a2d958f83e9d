/**
 * Gives each row of a level the profile of its node's terms. A row not yet in a layer takes one copy
 * per layer of its account's terms; copies whose layers carry the same profile fold back into one, so
 * layers split an item only where their terms differ (the policy layer and account levels keep every layer).
 */
import { ACCOUNT_ALL, POLICY_LAYER, type FmLevel } from './fm-levels.js';
import type { TermRow } from './level-terms.js';
import { FmRows, NONE, NO_PERIL, joinIdOf, type FmItems } from './fm-rows.js';

/** A term row as one level of the programme uses it. */
export interface LevelTermRow extends TermRow {
  /** The item peril this copy of the row applies to (null: not filtered by peril). */
  peril: string | null;
  /** The row's policy number and peril list as the programme's text ids. */
  polId: number;
  fmPerilId: number;
  needTiv: boolean;
  aggTiv: number;
  calcrule: number;
  profile: number;
}

/**
 * A level's copy of a term row (its own values: a level changes them), for one item peril. Built field
 * by field, every copy of one shape: a level makes one per location or account row.
 */
export function levelTermRow(
  t: TermRow,
  peril: string | null,
  polId: number,
  fmPerilId: number,
  aggTiv = 0,
): LevelTermRow {
  return {
    key: t.key,
    group: t.group,
    coverageTypes: t.coverageTypes,
    layer: t.layer,
    polNumber: t.polNumber,
    fmPeril: t.fmPeril,
    values: { ...t.values },
    step: t.step,
    isStep: t.isStep,
    peril,
    polId,
    fmPerilId,
    needTiv: false,
    aggTiv,
    calcrule: 0,
    profile: 0,
  };
}

export function takeProfiles(
  rows: FmRows,
  termRows: readonly LevelTermRow[],
  def: FmLevel,
  byLocation: boolean,
  perilIndex: Map<string, number>,
  items: FmItems,
): FmRows {
  // Term rows by the key, group and peril rows join them under (one lookup per row, by its join); a
  // row repeated whole is kept once. Repeats share a join: only joins with several rows are compared.
  const match = new Map<number, LevelTermRow[]>();
  for (const t of termRows) {
    const k = joinIdOf(t.key, t.group, t.peril === null ? NO_PERIL : perilIndex.get(t.peril)!);
    const list = match.get(k);
    if (list) list.push(t);
    else match.set(k, [t]);
  }
  for (const [k, list] of match) {
    if (list.length < 2) continue;
    const seen = new Set<string>();
    match.set(
      k,
      list.filter((t) => {
        const id = `${t.fmPeril ?? ''}|${t.aggTiv}|${t.layer}|${byLocation ? '' : t.polNumber}|${t.profile}`;
        if (seen.has(id)) return false;
        seen.add(id);
        return true;
      }),
    );
  }
  const NO_TERMS: LevelTermRow[] = [];
  const candidatesOf = (i: number) => {
    const join = rows.join[i];
    if (Number.isNaN(join)) return NO_TERMS;
    const all = match.get(join);
    if (!all) return NO_TERMS;
    if (all.length === 1) return all[0].aggTiv === rows.aggTiv[i] ? all : NO_TERMS;
    return all.filter((t) => t.aggTiv === rows.aggTiv[i]);
  };
  const layered = new FmRows(0);
  const fresh = new FmRows(rows.count);
  // The policy number a fresh row had before this level (byLocation false only).
  let prevPol: Int32Array = new Int32Array(rows.count);
  let anyLayered = false;
  for (let i = 0; i < rows.count; i++)
    if (rows.layer[i] > 0) {
      anyLayered = true;
      break;
    }
  for (let i = 0; i < rows.count; i++) {
    const candidates = candidatesOf(i);
    if (rows.layer[i] > 0) {
      const t = candidates.find((c) => c.layer === rows.layer[i] && (byLocation || c.polId === rows.pol[i]));
      const j = layered.append(rows, i);
      layered.profile[j] = t ? t.profile : 1;
    } else if (candidates.length === 0) {
      const j = fresh.append(rows, i);
      fresh.layer[j] = 1;
      fresh.profile[j] = 1;
      prevPol = recorded(prevPol, j, rows.pol[i]);
    } else {
      const before = rows.pol[i];
      for (const t of candidates) {
        const j = fresh.append(rows, i);
        fresh.layer[j] = t.layer;
        fresh.profile[j] = t.profile;
        fresh.pol[j] = byLocation ? before : t.polId;
        prevPol = recorded(prevPol, j, before);
      }
    }
  }
  if (!byLocation) {
    // An item keeps the policy number it had unless this level first splits it into layers.
    const split = new Uint8Array(items.count);
    for (let j = 0; j < fresh.count; j++) if (fresh.layer[j] > 1) split[fresh.item[j]] = 1;
    for (let j = 0; j < fresh.count; j++) {
      if (!(split[fresh.item[j]] || prevPol[j] === NONE)) fresh.pol[j] = prevPol[j];
    }
  }
  if (def.id !== POLICY_LAYER && def.id !== ACCOUNT_ALL) foldSameProfileCopies(fresh, layered, items);
  if (!anyLayered) return fresh;
  const all = new FmRows(layered.count + fresh.count);
  for (let i = 0; i < layered.count; i++) all.append(layered, i);
  for (let i = 0; i < fresh.count; i++) all.append(fresh, i);
  return all;
}

/** `list` with `value` at `at`, grown when full. */
function recorded(list: Int32Array, at: number, value: number): Int32Array {
  if (at >= list.length) {
    const wider = new Int32Array(Math.max(16, list.length * 2));
    wider.set(list);
    list = wider;
  }
  list[at] = value;
  return list;
}

/**
 * Copies of one item in one node that carry the same profile fold into one (unless the node holds
 * layered rows or the copies' profiles differ). Most items have one row per node: only items with
 * several are compared, each item's few rows among themselves.
 */
function foldSameProfileCopies(fresh: FmRows, layered: FmRows, items: FmItems): void {
  // Fresh rows by item, in row order within each item (a counting sort).
  const start = new Int32Array(items.count + 1);
  let anyCopies = false;
  for (let j = 0; j < fresh.count; j++) if (++start[fresh.item[j] + 1] > 1) anyCopies = true;
  if (!anyCopies) return;
  for (let k = 0; k < items.count; k++) start[k + 1] += start[k];
  const byItem = new Int32Array(fresh.count);
  const fill = start.slice(0, items.count);
  for (let j = 0; j < fresh.count; j++) byItem[fill[fresh.item[j]]++] = j;
  const layeredAggs = new Set<number>();
  for (let i = 0; i < layered.count; i++) layeredAggs.add(layered.agg[i]);
  const { agg, profile, layer } = fresh;
  const keep = new Uint8Array(fresh.count).fill(1);
  for (let k = 0; k < items.count; k++) {
    const from = start[k];
    const to = start[k + 1];
    if (to - from < 2) continue;
    for (let a = from; a < to; a++) {
      const j = byItem[a];
      let copies = 0;
      let profilesDiffer = false;
      for (let b = from; b < to; b++) {
        const o = byItem[b];
        if (agg[o] !== agg[j]) continue;
        copies++;
        if (profile[o] !== profile[j]) profilesDiffer = true;
      }
      if (copies < 2) continue;
      const keepLayer = profilesDiffer || layeredAggs.has(agg[j]);
      // Dropped when an earlier kept copy in the node has the same profile (and layer, when layers are kept).
      for (let b = from; b < a; b++) {
        const o = byItem[b];
        if (keep[o] && agg[o] === agg[j] && profile[o] === profile[j] && (!keepLayer || layer[o] === layer[j])) {
          keep[j] = 0;
          break;
        }
      }
    }
  }
  fresh.compact(keep);
}
