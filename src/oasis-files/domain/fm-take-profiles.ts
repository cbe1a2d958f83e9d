/**
 * Gives each row of a level the profile of its node's terms. A row not yet in a layer takes one copy
 * per layer of its account's terms; copies whose layers carry the same profile fold back into one, so
 * layers split an item only where their terms differ (the policy layer and account levels keep every layer).
 */
import { ACCOUNT_ALL, POLICY_LAYER, type FmLevel } from './fm-levels.js';
import type { TermRow } from './level-terms.js';
import { FmRows, ID_SPAN, LAYER_SPAN, NONE, NO_PERIL, joinIdOf, type FmItems } from './fm-rows.js';

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

export function takeProfiles(rows: FmRows, termRows: readonly LevelTermRow[], def: FmLevel, byLocation: boolean, perilIndex: Map<string, number>, items: FmItems): FmRows {
  // Term rows by the key, group and peril rows join them under (one lookup per row, by its join).
  const match = new Map<number, LevelTermRow[]>();
  const seen = new Set<string>();
  for (const t of termRows) {
    const id = `${t.key}|${t.group}|${t.fmPeril ?? ''}|${t.peril ?? ''}|${t.aggTiv}|${t.layer}|${byLocation ? '' : t.polNumber}|${t.profile}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const k = joinIdOf(t.key, t.group, t.peril === null ? NO_PERIL : perilIndex.get(t.peril)!);
    const list = match.get(k);
    if (list) list.push(t);
    else match.set(k, [t]);
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
  for (let i = 0; i < rows.count; i++) if (rows.layer[i] > 0) { anyLayered = true; break; }
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
 * several are compared.
 */
function foldSameProfileCopies(fresh: FmRows, layered: FmRows, items: FmItems): void {
  const rowsOfItem = new Int32Array(items.count);
  let anyCopies = false;
  for (let j = 0; j < fresh.count; j++) if (++rowsOfItem[fresh.item[j]] > 1) anyCopies = true;
  if (!anyCopies) return;
  const itemNode = (j: number) => fresh.item[j] * ID_SPAN + fresh.agg[j];
  const count = new Map<number, number>();
  for (let j = 0; j < fresh.count; j++) {
    if (rowsOfItem[fresh.item[j]] < 2) continue;
    const k = itemNode(j);
    count.set(k, (count.get(k) ?? 0) + 1);
  }
  const profilesOf = new Map<number, Set<number>>();
  for (let j = 0; j < fresh.count; j++) {
    if (rowsOfItem[fresh.item[j]] < 2) continue;
    const k = itemNode(j);
    if (count.get(k)! < 2) continue;
    (profilesOf.get(k) ?? profilesOf.set(k, new Set()).get(k)!).add(fresh.profile[j]);
  }
  const layeredAggs = new Set<number>();
  for (let i = 0; i < layered.count; i++) layeredAggs.add(layered.agg[i]);
  // (profile, layer or 0) pairs already kept for an item in a node.
  const keptOf = new Map<number, number[]>();
  const keep = new Uint8Array(fresh.count);
  for (let j = 0; j < fresh.count; j++) {
    keep[j] = 1;
    if (rowsOfItem[fresh.item[j]] < 2) continue;
    const k = itemNode(j);
    if (count.get(k)! < 2) continue;
    const keepLayer = profilesOf.get(k)!.size > 1 || layeredAggs.has(fresh.agg[j]);
    const pair = fresh.profile[j] * LAYER_SPAN + (keepLayer ? fresh.layer[j] : 0);
    let pairs = keptOf.get(k);
    if (pairs === undefined) { pairs = []; keptOf.set(k, pairs); }
    if (pairs.includes(pair)) keep[j] = 0;
    else pairs.push(pair);
  }
  fresh.compact(keep);
}
