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
import { clearUnusedTypes, levelTerms, needsTiv, type TermSource, type TermValues } from './level-terms.js';
import { perilsCovered } from './peril-groups.js';
import type { ConditionStages } from './condition-stages.js';
import { stepLevelTerms } from './step-level-terms.js';
import { NO_STEP_COLUMNS, stepCalcRule, stepProfileLine } from './step-policies.js';
import { FmRows, ID_SPAN, IntRecords, LAYER_SPAN, NONE, NO_PERIL, TextIds, joinIdOf, type FmItems } from './fm-rows.js';
import { markRootStarts, numberAccountNodes, numberLevelNodes } from './fm-nodes.js';
import { levelTermRow, takeProfiles, type LevelTermRow } from './fm-take-profiles.js';

export type { FmItems } from './fm-rows.js';

export interface FmProgramme {
  /** fm_programme's rows: from_agg_id, level_id, to_agg_id. */
  programme: IntRecords;
  /** fm_policytc's rows: level_id, agg_id, layer_id, profile_id. */
  policytc: IntRecords;
  profile: string[];
  /** One row per output, in output order: its item (index), layer and policy number (null: none given). */
  outputs: { count: number; item: Int32Array; layer: Int32Array; polNumber: (string | null)[] };
}

const PASS_THROUGH = '1,100,0,0,0,0,0,0,0,0';
const POLICY_ALL = 10;

/** One level as built: its definition, the rows its terms come from, and the node key of an item. */
interface LevelPass {
  def: FmLevel;
  src: TermSource;
  keyOf: (item: number) => number;
}

/** The levels in build order: the condition levels once per stage of the conditions, between the site and policy levels. */
function levelPasses(
  items: FmItems,
  locations: TermSource,
  accounts: TermSource,
  conditions: ConditionStages | null,
): LevelPass[] {
  const passes: LevelPass[] = [];
  const conditionLevels = FM_LEVELS.filter((l) => l.source === 'condition');
  for (const def of FM_LEVELS) {
    if (def.source === 'location') passes.push({ def, src: locations, keyOf: (i) => items.locId[i] });
    else if (def.source === 'account') passes.push({ def, src: accounts, keyOf: (i) => items.accId[i] });
    else if (def === conditionLevels[0] && conditions) {
      for (const stage of conditions.stages) {
        // A location under none of the stage's conditions finds no terms there (condition numbers start at 1).
        const keyOf = (i: number) => stage.conditionOfLocation.get(items.locId[i]) ?? -1;
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
export function fmProgramme(
  items: FmItems,
  locations: TermSource,
  accounts: TermSource,
  conditions: ConditionStages | null = null,
  stepPolicies = false,
): FmProgramme {
  let rows = FmRows.ofItems(items);
  const itemPerils = items.perils;
  if (itemPerils.length >= NO_PERIL)
    throw new CatintelError(
      'invalid_input',
      `the items name ${itemPerils.length} perils; at most ${NO_PERIL - 1} are supported in one set of Oasis files`,
    );
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
  // Policy numbers and peril lists as rows hold them.
  const texts = new TextIds();
  const programme = new IntRecords(3, items.count * 2);
  const policytc = new IntRecords(4, items.count);
  const ordinaryLine = (line: string) => (stepPolicies ? `${line},${NO_STEP_COLUMNS}` : line);
  const profiles: string[] = [ordinaryLine(PASS_THROUGH)];
  let profileOffset = 1;
  let level = 0;

  for (const { def, src, keyOf: keyOfItem } of levelPasses(items, locations, accounts, conditions)) {
    const terms = stepPolicies && def.id === POLICY_ALL ? stepLevelTerms(def, src) : levelTerms(def, src);
    let termRows: LevelTermRow[] = [];
    if (terms) {
      for (const t of terms.rows) {
        const polId = texts.id(t.polNumber);
        const fmPerilId = texts.id(t.fmPeril);
        // A row with a peril filter applies to the item perils it covers, one copy per peril.
        if (t.fmPeril === null) termRows.push(levelTermRow(t, null, polId, fmPerilId));
        else for (const p of coveredItemPerils(t.fmPeril)) termRows.push(levelTermRow(t, p, polId, fmPerilId));
      }
    }
    if (termRows.length === 0) {
      if (def.id === POLICY_LAYER) {
        level++;
        emptyPolicyLayer(rows, items, level, programme, policytc);
        rows.prev.set(rows.agg.subarray(0, rows.count));
      }
      continue;
    }
    const groupOfCoverage = terms!.groupOfCoverage;
    const groupOf =
      terms!.groupOf ??
      ((_key: number, coverageType: number, _peril: string | null) => groupOfCoverage.get(coverageType));
    const byLocation = def.source === 'location';
    const filtered = def.perilField !== undefined && src.cols.has(def.perilField);
    const joinKey = (key: number, group: number, peril: string | null) =>
      joinIdOf(key, group, peril === null ? NO_PERIL : perilIndex.get(peril)!);

    // Rows not yet split into layers by an earlier level wait to take their layer from this one.
    const layeredPrev = new Set<number>();
    for (let i = 0; i < rows.count; i++) if (rows.layer[i] > 1) layeredPrev.add(rows.prev[i]);
    for (let i = 0; i < rows.count; i++) if (!layeredPrev.has(rows.prev[i])) rows.layer[i] = 0;

    for (const t of termRows) clearUnusedTypes(t.values);
    const needTivOf = new Map<number, boolean>();
    const fmPerilOf = new Map<number, number>();
    for (const t of termRows) {
      const k = joinKey(t.key, t.group, t.peril);
      needTivOf.set(k, (needTivOf.get(k) ?? false) || needsTiv(t.values));
      if (fmPerilOf.has(k) && fmPerilOf.get(k) !== t.fmPerilId) {
        throw new CatintelError(
          'invalid_input',
          `the ${src.file}: ${def.perilField} differs between rows of one ${byLocation ? 'location' : def.source === 'condition' ? 'condition' : 'account'} at the ${def.name} level (${texts.text(fmPerilOf.get(k)!)}, ${t.fmPeril}); give its rows one peril list`,
        );
      }
      fmPerilOf.set(k, t.fmPerilId);
    }
    for (const t of termRows) t.needTiv = needTivOf.get(joinKey(t.key, t.group, t.peril))!;

    // Each row finds its terms: same key, its coverage's group, and (when filtered) its peril.
    for (let i = 0; i < rows.count; i++) {
      const item = rows.item[i];
      const key = keyOfItem(item);
      const g = groupOf(key, items.coverageType[item], filtered ? itemPerils[items.peril[item]] : null);
      const k = g === undefined ? null : joinIdOf(key, g, filtered ? items.peril[item] : NO_PERIL);
      const found = k !== null && needTivOf.has(k);
      rows.needTiv[i] = found && needTivOf.get(k!)! ? 1 : 0;
      rows.fmPeril[i] = found ? fmPerilOf.get(k!)! : NONE;
      rows.group[i] = found ? g! : def.id === POLICY_LAYER ? -1 : -rows.prev[i];
      rows.join[i] = found ? k! : NaN;
    }
    numberLevelNodes(rows, items, keyOfItem, byLocation);

    // Terms in % of TIV or BI days take the TIV under their node (each building of a location once).
    // Summed with Kahan's compensation, as pandas sums a group: a location's TIV split over 6 buildings
    // then sums back to the TIV exactly, and the profile it makes is the same as an unsplit location's.
    const aggTiv = new Map<number, number>();
    const carry = new Map<number, number>();
    const aggOfJoin = new Map<string, number[]>();
    const counted = new Set<string>();
    const coveragesOfGroup = terms!.tivCoverages ?? new Map(termRows.map((t) => [t.group, t.coverageTypes]));
    for (let i = 0; i < rows.count; i++) {
      rows.aggTiv[i] = 0;
      if (!rows.needTiv[i]) continue;
      const item = rows.item[i];
      const agg = rows.agg[i];
      const groupCovs = coveragesOfGroup.get(rows.group[i])!;
      const once = `${agg}|${items.locId[item]}|${items.buildingId[item]}`;
      if (!counted.has(once)) {
        counted.add(once);
        const value = groupCovs.reduce((s, c) => s + items.locationTiv(item, c), 0);
        const sum = aggTiv.get(agg) ?? 0;
        const y = value - (carry.get(agg) ?? 0);
        const t = sum + y;
        carry.set(agg, t - sum - y);
        aggTiv.set(agg, t);
      }
      const jk = `${keyOfItem(item)}|${rows.group[i]}|${rows.fmPeril[i]}`;
      const list = aggOfJoin.get(jk) ?? [];
      if (!list.includes(agg)) list.push(agg);
      aggOfJoin.set(jk, list);
    }
    for (let i = 0; i < rows.count; i++) if (rows.needTiv[i]) rows.aggTiv[i] = aggTiv.get(rows.agg[i])!;
    const expanded: LevelTermRow[] = [];
    for (const t of termRows) {
      const aggs = t.needTiv ? aggOfJoin.get(`${t.key}|${t.group}|${t.fmPerilId}`) : undefined;
      if (aggs === undefined) {
        // One copy at TIV 0: the row itself, as no other copy shares its values.
        t.aggTiv = 0;
        expanded.push(t);
        continue;
      }
      for (const tiv of new Set(aggs.map((a) => aggTiv.get(a)!))) {
        const copy = levelTermRow(t, t.peril, t.polId, t.fmPerilId, tiv);
        copy.needTiv = t.needTiv;
        expanded.push(copy);
      }
    }
    termRows = expanded;
    // A term in % of TIV or days over no TIV comes to 0: no term, whatever its type said.
    for (const t of termRows) {
      applyTiv(t.values, t.aggTiv);
      clearUnusedTypes(t.values);
    }

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
      if (!stepLineSeen.has(line)) {
        stepLineSeen.add(line);
        stepLines.push({ profile: p, step: t.step!.stepId, line });
      }
    }
    stepLines.sort((a, b) => a.profile - b.profile || a.step - b.step);
    profiles.push(...stepLines.map((l) => l.line));
    profileOffset += stepProfileOf.size;
    const profileOf = new Map<string, number>();
    for (const t of termRows) {
      if (t.isStep) continue;
      const v = t.values;
      t.calcrule =
        def.id === POLICY_LAYER
          ? layerCalcRule(v.attachment, v.limit, v.share)
          : baseCalcRule(
              v,
              () => `the ${src.file}, ${def.name} level, ${byLocation ? 'location' : 'account'} ${t.key}`,
            );
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

    rows = takeProfiles(rows, termRows, def, byLocation, perilIndex, items);
    markRootStarts(rows);
    level++;
    linkLevel(rows, items, level, def.id === ACCOUNT_ALL, programme, policytc);
    rows.prev.set(rows.agg.subarray(0, rows.count));
    rows.rootStart.fill(0, 0, rows.count);
  }

  return { programme, policytc, profile: profiles, outputs: outputsInOrder(rows, items, texts) };
}

/**
 * Writes a level's fm_policytc rows (each distinct node, layer and profile once) and fm_programme links
 * (each distinct from and to once), in order of first appearance. At the account level only layer 1's
 * rows carry a policytc row (the other layers' rows come from the policy layer).
 */
function linkLevel(
  rows: FmRows,
  items: FmItems,
  level: number,
  accountLevel: boolean,
  programme: IntRecords,
  policytc: IntRecords,
): void {
  // The first profile of each node and layer; further distinct ones (rare) in a list.
  const profileOfNodeLayer = new Map<number, number>();
  const moreProfiles = new Map<number, number[]>();
  const programmeKeys = new Set<number>();
  // A previous node not split here feeds one node: its link is written once, found by the previous
  // node alone (most rows); split nodes' rows start from their item and are looked up by pair.
  let maxPrev = 0;
  for (let i = 0; i < rows.count; i++) if (rows.prev[i] > maxPrev) maxPrev = rows.prev[i];
  const aggOfPrev = new Int32Array(maxPrev + 1);
  for (let i = 0; i < rows.count; i++) {
    const agg = rows.agg[i];
    const layer = rows.layer[i];
    const profile = rows.profile[i];
    if (!(accountLevel && layer !== 1)) {
      const nodeLayer = agg * LAYER_SPAN + layer;
      const first = profileOfNodeLayer.get(nodeLayer);
      if (first === undefined) {
        profileOfNodeLayer.set(nodeLayer, profile);
        policytc.push(level, agg, layer, profile);
      } else if (first !== profile) {
        let more = moreProfiles.get(nodeLayer);
        if (more === undefined) {
          more = [];
          moreProfiles.set(nodeLayer, more);
        }
        if (!more.includes(profile)) {
          more.push(profile);
          policytc.push(level, agg, layer, profile);
        }
      }
    }
    const prev = rows.prev[i];
    if (!rows.rootStart[i]) {
      const seenAgg = aggOfPrev[prev];
      if (seenAgg === agg) continue;
      if (seenAgg === 0) {
        aggOfPrev[prev] = agg;
        programme.push(prev, level, agg);
        continue;
      }
    }
    const from = rows.rootStart[i] ? -items.itemId[rows.item[i]] : prev;
    const link = (from + ID_SPAN) * ID_SPAN * 2 + agg;
    if (!programmeKeys.has(link)) {
      programmeKeys.add(link);
      programme.push(from, level, agg);
    }
  }
}

/** The policy layer of a programme whose accounts carry no layer terms: one pass-through node per account. */
function emptyPolicyLayer(
  rows: FmRows,
  items: FmItems,
  level: number,
  programme: IntRecords,
  policytc: IntRecords,
): void {
  numberAccountNodes(rows, items);
  const p = new Set<number>();
  const q = new Set<number>();
  for (let i = 0; i < rows.count; i++) {
    const agg = rows.agg[i];
    const a = agg * LAYER_SPAN + rows.layer[i];
    if (!p.has(a)) {
      p.add(a);
      policytc.push(level, agg, rows.layer[i], 1);
    }
    const b = (rows.prev[i] + ID_SPAN) * ID_SPAN * 2 + agg;
    if (!q.has(b)) {
      q.add(b);
      programme.push(rows.prev[i], level, agg);
    }
  }
}

/** The final rows in output order: by item, then layer, then row order (rows of one item are few: sorted in place). */
function outputsInOrder(rows: FmRows, items: FmItems, texts: TextIds): FmProgramme['outputs'] {
  const start = new Int32Array(items.count + 1);
  for (let i = 0; i < rows.count; i++) start[rows.item[i] + 1]++;
  for (let k = 0; k < items.count; k++) start[k + 1] += start[k];
  const order = new Int32Array(rows.count);
  const fill = start.slice(0, items.count);
  for (let i = 0; i < rows.count; i++) order[fill[rows.item[i]]++] = i;
  for (let k = 0; k < items.count; k++) {
    // Insertion sort by layer, stable: an item has a row per layer at most a handful of times.
    for (let a = start[k] + 1; a < start[k + 1]; a++) {
      const row = order[a];
      let b = a - 1;
      while (b >= start[k] && rows.layer[order[b]] > rows.layer[row]) {
        order[b + 1] = order[b];
        b--;
      }
      order[b + 1] = row;
    }
  }
  const item = new Int32Array(rows.count);
  const layer = new Int32Array(rows.count);
  const polNumber = new Array<string | null>(rows.count);
  for (let o = 0; o < rows.count; o++) {
    const i = order[o];
    item[o] = rows.item[i];
    layer[o] = rows.layer[i];
    polNumber[o] = texts.text(rows.pol[i]);
  }
  return { count: rows.count, item, layer, polNumber };
}

function applyTiv(v: TermValues, tiv: number): void {
  if (v.dedType === 2) {
    v.deductible *= tiv;
    v.dedType = 0;
  } else if (v.dedType === 3) v.deductible = (v.deductible * tiv) / 365;
  if (v.limType === 2) {
    v.limit *= tiv;
    v.limType = 0;
  } else if (v.limType === 3) v.limit = (v.limit * tiv) / 365;
}
