/**
 * The FM programme of a portfolio with financial terms, level by level as Oasis builds it: items
 * (one row per item and policy layer) climb the levels that carry terms; at each, the items that
 * share a key (location and risk, or account), term group and peril filter become one node, numbered
 * by first appearance in row order; a node whose items found no terms there carries one item's loss
 * through unchanged (profile 1, pass-through). Profiles are numbered across levels by first
 * appearance of each distinct set of terms. A policy with several layers splits its items into one
 * row per layer at the first level where the layers' terms differ.
 */
import { CatintelError } from '../../errors.js';
import { baseCalcRule, layerCalcRule } from './calc-rules.js';
import { ACCOUNT_ALL, FM_LEVELS, POLICY_LAYER, type FmLevel } from './fm-levels.js';
import { clearUnusedTypes, levelTerms, needsTiv, type TermRow, type TermSource, type TermValues } from './level-terms.js';
import { perilsCovered } from './peril-groups.js';
import type { ConditionStages } from './condition-stages.js';
import { stepLevelTerms } from './step-level-terms.js';
import { NO_STEP_COLUMNS, stepCalcRule, stepProfileLine } from './step-policies.js';

/** What the programme needs of each item. */
export interface FmItem {
  itemId: number;
  locId: number;
  accId: number;
  riskId: number;
  buildingId: number;
  coverageType: number;
  peril: string;
  /** The location's (or cyber account's) TIV by coverage type - 1, per building; a type it has no value of is absent or 0. */
  locationTiv: readonly number[];
}

interface Row {
  item: FmItem;
  layer: number;
  polNumber: string | null;
  prev: number;
  // per level
  group: number;
  needTiv: boolean | null;
  fmPeril: string | null;
  agg: number;
  aggTiv: number;
  profile: number;
  rootStart: boolean;
  /** The key, group and peril this row found its terms under at this level, as joinIdOf numbers them (null: none). */
  join: number | null;
}

interface LevelTermRow extends TermRow {
  peril: string | null;
  needTiv: boolean;
  aggTiv: number;
  calcrule: number;
  profile: number;
}

export interface FmProgramme {
  programme: string[];
  policytc: string[];
  profile: string[];
  /** One row per output, in output order: the item, its layer and its policy number. */
  outputs: { item: FmItem; layer: number; polNumber: string | null }[];
}

const PASS_THROUGH = '1,100,0,0,0,0,0,0,0,0';
const POLICY_ALL = 10;

/** One level as built: its definition, the rows its terms come from, and the node key of an item. */
interface LevelPass {
  def: FmLevel;
  src: TermSource;
  keyOf: (item: FmItem) => number;
}

/** The levels in build order: the condition levels once per stage of the conditions, between the site and policy levels. */
function levelPasses(locations: TermSource, accounts: TermSource, conditions: ConditionStages | null): LevelPass[] {
  const passes: LevelPass[] = [];
  const conditionLevels = FM_LEVELS.filter((l) => l.source === 'condition');
  for (const def of FM_LEVELS) {
    if (def.source === 'location') passes.push({ def, src: locations, keyOf: (i) => i.locId });
    else if (def.source === 'account') passes.push({ def, src: accounts, keyOf: (i) => i.accId });
    else if (def === conditionLevels[0] && conditions) {
      for (const stage of conditions.stages) {
        // A location under none of the stage's conditions finds no terms there (condition numbers start at 1).
        const keyOf = (i: FmItem) => stage.conditionOfLocation.get(i.locId) ?? -1;
        for (const c of conditionLevels) passes.push({ def: c, src: stage.source, keyOf });
      }
    }
  }
  return passes;
}

/**
 * With step policies the policy all level is built by step-level-terms.ts, and every fm_profile row
 * carries the step columns (a profile that is not a step: step 1, no step terms).
 */
export function fmProgramme(items: readonly FmItem[], locations: TermSource, accounts: TermSource, conditions: ConditionStages | null = null, stepPolicies = false): FmProgramme {
  let rows: Row[] = items.map((item) => ({ item, layer: 1, polNumber: null, prev: item.itemId, group: 0, needTiv: null, fmPeril: null, agg: 0, aggTiv: 0, profile: 1, rootStart: false, join: null }));
  const itemPerils = [...new Set(items.map((i) => i.peril))];
  if (itemPerils.length >= NO_PERIL) throw new CatintelError('invalid_input', `the items name ${itemPerils.length} perils; at most ${NO_PERIL - 1} are supported in one set of Oasis files`);
  const perilIndex = new Map(itemPerils.map((p, i) => [p, i]));
  // A portfolio repeats a handful of peril lists over its rows: each is read once.
  const perilsOf = new Map<string, string[]>();
  const coveredItemPerils = (list: string) => {
    let out = perilsOf.get(list);
    if (!out) {
      const covered = perilsCovered(list);
      out = itemPerils.filter((p) => covered.has(p));
      perilsOf.set(list, out);
    }
    return out;
  };
  const programme: string[] = [];
  const policytc: string[] = [];
  const ordinaryLine = (line: string) => (stepPolicies ? `${line},${NO_STEP_COLUMNS}` : line);
  const profiles: string[] = [ordinaryLine(PASS_THROUGH)];
  let profileOffset = 1;
  let level = 0;

  for (const { def, src, keyOf: keyOfItem } of levelPasses(locations, accounts, conditions)) {
    const terms = stepPolicies && def.id === POLICY_ALL ? stepLevelTerms(def, src) : levelTerms(def, src);
    let termRows: LevelTermRow[] = [];
    if (terms) {
      for (const t of terms.rows) {
        // A row with a peril filter applies to the item perils it covers, one copy per peril.
        if (t.fmPeril === null) termRows.push({ ...t, peril: null, needTiv: false, aggTiv: 0, calcrule: 0, profile: 0 });
        else {
          for (const p of coveredItemPerils(t.fmPeril)) termRows.push({ ...t, values: { ...t.values }, peril: p, needTiv: false, aggTiv: 0, calcrule: 0, profile: 0 });
        }
      }
    }
    if (termRows.length === 0) {
      if (def.id === POLICY_LAYER) {
        level++;
        emptyPolicyLayer(rows, level, programme, policytc);
        for (const r of rows) r.prev = r.agg;
      }
      continue;
    }
    const groupOfCoverage = terms!.groupOfCoverage;
    const groupOf = terms!.groupOf ?? ((_key: number, coverageType: number, _peril: string | null) => groupOfCoverage.get(coverageType));
    const byLocation = def.source === 'location';
    const filtered = def.perilField !== undefined && src.cols.has(def.perilField);
    const keyOf = (r: Row) => keyOfItem(r.item);
    const joinKey = (key: number, group: number, peril: string | null) => joinIdOf(key, group, peril === null ? NO_PERIL : perilIndex.get(peril)!);

    // Rows not yet split into layers by an earlier level wait to take their layer from this one.
    const layeredPrev = new Set(rows.filter((r) => r.layer > 1).map((r) => r.prev));
    for (const r of rows) if (!layeredPrev.has(r.prev)) r.layer = 0;

    for (const t of termRows) clearUnusedTypes(t.values);
    const needTivOf = new Map<number, boolean>();
    const fmPerilOf = new Map<number, string | null>();
    for (const t of termRows) {
      const k = joinKey(t.key, t.group, t.peril);
      needTivOf.set(k, (needTivOf.get(k) ?? false) || needsTiv(t.values));
      if (fmPerilOf.has(k) && fmPerilOf.get(k) !== t.fmPeril) {
        throw new CatintelError('invalid_input', `the ${src.file}: ${def.perilField} differs between rows of one ${byLocation ? 'location' : def.source === 'condition' ? 'condition' : 'account'} at the ${def.name} level (${fmPerilOf.get(k)}, ${t.fmPeril}); give its rows one peril list`);
      }
      fmPerilOf.set(k, t.fmPeril);
    }
    for (const t of termRows) t.needTiv = needTivOf.get(joinKey(t.key, t.group, t.peril))!;

    // Each row finds its terms: same key, its coverage's group, and (when filtered) its peril.
    for (const r of rows) {
      const g = groupOf(keyOf(r), r.item.coverageType, filtered ? r.item.peril : null);
      const k = g === undefined ? null : joinKey(keyOf(r), g, filtered ? r.item.peril : null);
      const found = k !== null && needTivOf.has(k);
      r.needTiv = found ? needTivOf.get(k!)! : null;
      r.fmPeril = found ? fmPerilOf.get(k!)! : null;
      r.group = found ? g! : def.id === POLICY_LAYER ? -1 : -r.prev;
      r.join = found ? k : null;
    }
    numberLevelNodes(rows, keyOf, byLocation);

    // Terms in % of TIV or BI days take the TIV under their node (each building of a location once).
    // Summed with Kahan's compensation, as pandas sums a group: a location's TIV split over 6 buildings
    // then sums back to the TIV exactly, and the profile it makes is the same as an unsplit location's.
    const aggTiv = new Map<number, number>();
    const carry = new Map<number, number>();
    const aggOfJoin = new Map<string, number[]>();
    const counted = new Set<string>();
    const coveragesOfGroup = terms!.tivCoverages ?? new Map(termRows.map((t) => [t.group, t.coverageTypes]));
    for (const r of rows) {
      r.aggTiv = 0;
      if (!r.needTiv) continue;
      const groupCovs = coveragesOfGroup.get(r.group)!;
      const once = `${r.agg}|${r.item.locId}|${r.item.buildingId}`;
      if (!counted.has(once)) {
        counted.add(once);
        const value = groupCovs.reduce((s, c) => s + (r.item.locationTiv[c - 1] ?? 0), 0);
        const sum = aggTiv.get(r.agg) ?? 0;
        const y = value - (carry.get(r.agg) ?? 0);
        const t = sum + y;
        carry.set(r.agg, t - sum - y);
        aggTiv.set(r.agg, t);
      }
      const jk = `${keyOf(r)}|${r.group}|${r.fmPeril ?? ''}`;
      const list = aggOfJoin.get(jk) ?? [];
      if (!list.includes(r.agg)) list.push(r.agg);
      aggOfJoin.set(jk, list);
    }
    for (const r of rows) if (r.needTiv) r.aggTiv = aggTiv.get(r.agg)!;
    const expanded: LevelTermRow[] = [];
    for (const t of termRows) {
      const aggs = t.needTiv ? aggOfJoin.get(`${t.key}|${t.group}|${t.fmPeril ?? ''}`) : undefined;
      const tivs = aggs ? [...new Set(aggs.map((a) => aggTiv.get(a)!))] : [0];
      for (const tiv of tivs) expanded.push({ ...t, values: { ...t.values }, aggTiv: tiv });
    }
    termRows = expanded;
    // A term in % of TIV or days over no TIV comes to 0: no term, whatever its type said.
    for (const t of termRows) { applyTiv(t.values, t.aggTiv); clearUnusedTypes(t.values); }

    // Step profiles first, one per node (layer, key, group, peril list) in order of appearance, each
    // step a row of the profile; then the other profiles, numbered by first appearance of each
    // distinct set of terms.
    const stepProfileOf = new Map<string, number>();
    const stepLines: { profile: number; step: number; line: string }[] = [];
    const stepLineSeen = new Set<string>();
    for (const t of termRows) {
      if (!t.isStep) continue;
      t.calcrule = stepCalcRule(t.step!, () => `the ${src.file}, ${def.name} level, account ${t.key}`);
      const node = `${t.layer}|${t.key}|${t.group}|${t.fmPeril ?? ''}`;
      let p = stepProfileOf.get(node);
      if (p === undefined) {
        p = profileOffset + stepProfileOf.size + 1;
        stepProfileOf.set(node, p);
      }
      t.profile = p;
      const line = stepProfileLine(p, t.calcrule, t.step!);
      if (!stepLineSeen.has(line)) { stepLineSeen.add(line); stepLines.push({ profile: p, step: t.step!.stepId, line }); }
    }
    stepLines.sort((a, b) => a.profile - b.profile || a.step - b.step);
    profiles.push(...stepLines.map((l) => l.line));
    profileOffset += stepProfileOf.size;
    const profileOf = new Map<string, number>();
    for (const t of termRows) {
      if (t.isStep) continue;
      const v = t.values;
      t.calcrule = def.id === POLICY_LAYER
        ? layerCalcRule(v.attachment, v.limit, v.share)
        : baseCalcRule(v, () => `the ${src.file}, ${def.name} level, ${byLocation ? 'location' : 'account'} ${t.key}`);
      const id = `${t.calcrule},${v.deductible},${v.deductibleMin},${v.deductibleMax},${v.attachment},${v.limit},${v.share}`;
      let p = profileOf.get(id);
      if (p === undefined) {
        p = profileOffset + profileOf.size + 1;
        profileOf.set(id, p);
        profiles.push(ordinaryLine(`${p},${id},0,0`));
      }
      t.profile = p;
    }
    profileOffset += profileOf.size;

    rows = takeProfiles(rows, termRows, def, byLocation, perilIndex);
    markRootStarts(rows);
    level++;
    // Each distinct (node, layer, profile) and (from, to) once, in order of first appearance; keyed
    // by number, not text, as there is one lookup per row and level.
    const profilesOfNodeLayer = new Map<number, number[]>();
    const programmeKeys = new Set<number>();
    // A previous node not split here feeds one node: its link is written once, found by the previous
    // node alone (most rows); split nodes' rows start from their item and are looked up by pair.
    const aggOfPrev = new Map<number, number>();
    for (const r of rows) {
      if (!(def.id === ACCOUNT_ALL && r.layer !== 1)) {
        const nodeLayer = r.agg * LAYER_SPAN + r.layer;
        let seen = profilesOfNodeLayer.get(nodeLayer);
        if (seen === undefined) { seen = []; profilesOfNodeLayer.set(nodeLayer, seen); }
        if (!seen.includes(r.profile)) { seen.push(r.profile); policytc.push(`${level},${r.agg},${r.layer},${r.profile}`); }
      }
      if (!r.rootStart) {
        const seenAgg = aggOfPrev.get(r.prev);
        if (seenAgg === r.agg) continue;
        if (seenAgg === undefined) { aggOfPrev.set(r.prev, r.agg); programme.push(`${r.prev},${level},${r.agg}`); continue; }
      }
      const from = r.rootStart ? -r.item.itemId : r.prev;
      const link = (from + ID_SPAN) * ID_SPAN * 2 + r.agg;
      if (!programmeKeys.has(link)) { programmeKeys.add(link); programme.push(`${from},${level},${r.agg}`); }
    }
    for (const r of rows) { r.prev = r.agg; r.rootStart = false; }
  }

  const sorted = rows.map((r, i) => ({ r, i })).sort((a, b) => a.r.item.itemId - b.r.item.itemId || a.r.layer - b.r.layer || a.i - b.i);
  return { programme, policytc, profile: profiles, outputs: sorted.map(({ r }) => ({ item: r.item, layer: r.layer, polNumber: r.polNumber })) };
}

/**
 * A row joins the terms of its key (location, condition or account id), term group (1-5) and, at a
 * level filtered by peril, its peril (index among the items' perils, NO_PERIL when not filtered): one
 * exact number, so the lookup done for every row at every level builds no text.
 */
const NO_PERIL = 63;
function joinIdOf(key: number, group: number, peril: number): number {
  return (key * 8 + group) * 64 + peril;
}

/** Node and item ids stay below 2^26 and layers below 2^10, so pairs of them key a Map as one exact number. */
const ID_SPAN = 2 ** 26;
const LAYER_SPAN = 2 ** 10;

/**
 * Numbers a level's nodes 1..n by first appearance in row order. A row that found terms joins the
 * node of its key, risk (site levels), group and peril list; a row that found none passes through a
 * node of its own previous node (or, at the policy layer, of its key). Keys are numbers where they fit.
 */
function numberLevelNodes(rows: Row[], keyOf: (r: Row) => number, byLocation: boolean): void {
  const perilIds = new Map<string | null, number>();
  const withTerms = new Map<number, number>();
  const passing = new Map<number, Map<number, number>>();
  const byText = new Map<string, number>();
  let next = 0;
  for (const r of rows) {
    const key = keyOf(r);
    const risk = byLocation ? r.item.riskId : 0;
    let id: number | undefined;
    if (r.group >= -1 && key >= 0 && key < ID_SPAN && risk < 2 ** 16 && r.group < 8) {
      let peril = perilIds.get(r.fmPeril);
      if (peril === undefined) { peril = perilIds.size; perilIds.set(r.fmPeril, peril); }
      if (peril < 64) {
        const composite = ((key * 8 + (r.group + 1)) * 2 ** 16 + risk) * 64 + peril;
        id = withTerms.get(composite);
        if (id === undefined) { id = ++next; withTerms.set(composite, id); }
        r.agg = id;
        continue;
      }
    }
    if (r.group < -1 && key >= 0 && key < ID_SPAN && risk < 2 ** 16) {
      let inner = passing.get(r.group);
      if (inner === undefined) { inner = new Map(); passing.set(r.group, inner); }
      const k = key * 2 ** 16 + risk;
      id = inner.get(k);
      if (id === undefined) { id = ++next; inner.set(k, id); }
      r.agg = id;
      continue;
    }
    const text = `${key}|${risk}|${r.group}|${r.fmPeril ?? ''}`;
    id = byText.get(text);
    if (id === undefined) { id = ++next; byText.set(text, id); }
    r.agg = id;
  }
}

/** Numbers nodes 1..n by first appearance of their key in row order. */
function numberNodes(rows: Row[], key: (r: Row) => string): void {
  const ids = new Map<string, number>();
  for (const r of rows) {
    const k = key(r);
    let id = ids.get(k);
    if (id === undefined) { id = ids.size + 1; ids.set(k, id); }
    r.agg = id;
  }
}

function emptyPolicyLayer(rows: Row[], level: number, programme: string[], policytc: string[]): void {
  numberNodes(rows, (r) => String(r.item.accId));
  const p = new Set<string>();
  const q = new Set<string>();
  for (const r of rows) {
    const a = `${level},${r.agg},${r.layer},1`;
    if (!p.has(a)) { p.add(a); policytc.push(a); }
    const b = `${r.prev},${level},${r.agg}`;
    if (!q.has(b)) { q.add(b); programme.push(b); }
  }
}

function applyTiv(v: TermValues, tiv: number): void {
  if (v.dedType === 2) { v.deductible *= tiv; v.dedType = 0; }
  else if (v.dedType === 3) v.deductible = (v.deductible * tiv) / 365;
  if (v.limType === 2) { v.limit *= tiv; v.limType = 0; }
  else if (v.limType === 3) v.limit = (v.limit * tiv) / 365;
}

/**
 * Gives each row the profile of its node's terms. A row not yet in a layer takes one copy per layer
 * of its account's terms; copies whose layers carry the same profile fold back into one, so layers
 * split an item only where their terms differ (the policy layer and account levels keep every layer).
 */
function takeProfiles(rows: Row[], termRows: LevelTermRow[], def: FmLevel, byLocation: boolean, perilIndex: Map<string, number>): Row[] {
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
  const NONE: LevelTermRow[] = [];
  const candidatesOf = (r: Row) => {
    if (r.join === null) return NONE;
    const all = match.get(r.join);
    if (!all) return NONE;
    if (all.length === 1) return all[0].aggTiv === r.aggTiv ? all : NONE;
    return all.filter((t) => t.aggTiv === r.aggTiv);
  };
  const layered: Row[] = [];
  const fresh: Row[] = [];
  // The policy number a fresh row had before this level (byLocation false only).
  const prevPol: (string | null)[] = [];
  let anyLayered = false;
  for (const r of rows) if (r.layer > 0) { anyLayered = true; break; }
  // Rows are changed in place: each row belongs to this level's list only.
  for (const r of rows) {
    const candidates = candidatesOf(r);
    if (r.layer > 0) {
      const t = candidates.find((c) => c.layer === r.layer && (byLocation || c.polNumber === r.polNumber));
      r.profile = t ? t.profile : 1;
      layered.push(r);
    } else if (candidates.length === 0) {
      r.layer = 1;
      r.profile = 1;
      fresh.push(r);
      prevPol.push(r.polNumber);
    } else {
      const before = r.polNumber;
      for (let c = 0; c < candidates.length; c++) {
        const t = candidates[c];
        const out = c === 0 ? r : { ...r };
        out.layer = t.layer;
        out.profile = t.profile;
        out.polNumber = byLocation ? before : t.polNumber;
        fresh.push(out);
        prevPol.push(before);
      }
    }
  }
  if (!byLocation) {
    // An item keeps the policy number it had unless this level first splits it into layers.
    const split = new Set<number>();
    for (const r of fresh) if (r.layer > 1) split.add(r.item.itemId);
    for (let i = 0; i < fresh.length; i++) {
      const r = fresh[i];
      if (!(split.has(r.item.itemId) || prevPol[i] === null)) r.polNumber = prevPol[i];
    }
  }
  let kept = fresh;
  if (def.id !== POLICY_LAYER && def.id !== ACCOUNT_ALL) {
    // Copies of one item in one node that carry the same profile fold into one (unless the node holds
    // layered rows or the copies' profiles differ). Most items have one row per node: only items with
    // several are compared.
    const itemNode = (r: Row) => r.item.itemId * ID_SPAN + r.agg;
    // Rows per item first (an array by item id): an item with one row has one in its node, and
    // only the others are counted per node.
    let maxItem = 0;
    for (const r of fresh) if (r.item.itemId > maxItem) maxItem = r.item.itemId;
    const rowsOfItem = new Int32Array(maxItem + 1);
    for (const r of fresh) rowsOfItem[r.item.itemId]++;
    const count = new Map<number, number>();
    for (const r of fresh) {
      if (rowsOfItem[r.item.itemId] < 2) continue;
      const k = itemNode(r);
      count.set(k, (count.get(k) ?? 0) + 1);
    }
    const profilesOf = new Map<number, Set<number>>();
    for (const r of fresh) {
      if (rowsOfItem[r.item.itemId] < 2) continue;
      const k = itemNode(r);
      if (count.get(k)! < 2) continue;
      (profilesOf.get(k) ?? profilesOf.set(k, new Set()).get(k)!).add(r.profile);
    }
    const layeredAggs = new Set(layered.map((r) => r.agg));
    // (profile, layer or 0) pairs already kept for an item in a node.
    const keptOf = new Map<number, number[]>();
    kept = fresh.filter((r) => {
      if (rowsOfItem[r.item.itemId] < 2) return true;
      const k = itemNode(r);
      if (count.get(k)! < 2) return true;
      const keepLayer = profilesOf.get(k)!.size > 1 || layeredAggs.has(r.agg);
      const pair = r.profile * LAYER_SPAN + (keepLayer ? r.layer : 0);
      let pairs = keptOf.get(k);
      if (pairs === undefined) { pairs = []; keptOf.set(k, pairs); }
      if (pairs.includes(pair)) return false;
      pairs.push(pair);
      return true;
    });
  }
  return anyLayered ? [...layered, ...kept] : kept;
}

/** A node of the previous level split over several nodes here: each item enters the split nodes on its own. */
function markRootStarts(rows: Row[]): void {
  const firstAggOfPrev = new Map<number, number>();
  const splitPrevs = new Set<number>();
  for (const r of rows) {
    const a = firstAggOfPrev.get(r.prev);
    if (a === undefined) firstAggOfPrev.set(r.prev, r.agg);
    else if (a !== r.agg) splitPrevs.add(r.prev);
  }
  const splitAggs = new Set<number>();
  if (splitPrevs.size > 0) for (const r of rows) if (splitPrevs.has(r.prev)) splitAggs.add(r.agg);
  for (const r of rows) r.rootStart = splitAggs.size > 0 && splitAggs.has(r.agg);
}
