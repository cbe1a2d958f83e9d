/**
 * The financial structure of a programme: one node per (level, agg_id) from the item level up,
 * linked as fm_programme says, each with its profiles (one per layer from fm_policytc), its number of
 * layers and its output ids (fm_xref). Built once per run, as the Oasis financial module (fmpy) builds
 * it:
 * - items are their own level 0 when level 1 groups several items into one agg_id (several perils on
 *   one coverage); otherwise level 1's agg_ids are the items;
 * - a from_agg_id below 0 links an item straight to a higher level (fmpy's level skipping);
 * - layers flow down: a node has the layers of its parent when it has no more of its own; a node with
 *   more layers than the top of its tree makes that top node "cross-layer" (its one profile applies to
 *   the sum of the layers, shared back to each layer pro rata);
 * - % of TIV terms use the TIV of the coverages under the node, each coverage counted once;
 * - nodes under a minimum or maximum deductible carry the deductible / over-limit / under-limit amounts;
 * - with allocation rules 1 and 2 the outputs are per item and layer; with rule 0 (or a single level)
 *   per top-level node and layer.
 */
import { CatintelError } from '../../../errors.js';
import { checkCalcrule } from './calcrules.js';
import { doesNothing, EXTRAS_RULES, prepareSimple, prepareStepped, TIV_RULES, type ProfileStep } from './profile.js';

export interface FmFiles {
  programme: { from: ArrayLike<number>; level: ArrayLike<number>; to: ArrayLike<number> };
  policytc: { level: ArrayLike<number>; agg: ArrayLike<number>; layer: ArrayLike<number>; profile: ArrayLike<number> };
  /** fm_profile rows in file order (a step policy's rows share a profile_id). */
  profiles: ProfileStep[];
  /** True when fm_profile has the step columns: step rules are allowed. */
  stepped: boolean;
  xref: { output: ArrayLike<number>; agg: ArrayLike<number>; layer: ArrayLike<number> };
  /** items.csv (item_id -> coverage_id) and coverages.csv (tiv by coverage_id), when the programme has them. */
  itemCoverage?: Map<number, number>;
  coverageTiv?: Map<number, number>;
  /** The file names errors cite. */
  names?: { profile?: string; programme?: string; xref?: string };
}

export interface FmNode {
  level: number;
  agg: number;
  layerLen: number;
  /** One profile applies to the sum of the node's layers. */
  crossLayer: boolean;
  /** The profiles to apply, one per layer (fm_policytc rows in layer order); an empty one changes nothing. */
  profiles: ProfileStep[][];
  /** How many profiles are applied: the layers of a cross-layer node, else its own profiles (at least 1). */
  profileLen: number;
  hasExtras: boolean;
  /** Parents, lower levels first (a node has more than one only when items skip levels). */
  parents: FmNode[];
  children: FmNode[];
  /** Output id per layer (0: no output), on output nodes only. */
  outputIds?: Int32Array;
}

export type AllocationRule = 0 | 1 | 2;

export interface FmStructure {
  /** The rule applied: 3 runs as 2, and a single-level programme as 0. */
  allocRule: AllocationRule;
  startLevel: number;
  maxLevel: number;
  /** nodes[level][agg_id] for levels startLevel..maxLevel. */
  nodes: FmNode[][];
  /** The largest item id the programme knows. */
  itemCount: number;
}

function invalid(message: string): never {
  throw new CatintelError('invalid_input', message);
}

export function buildStructure(files: FmFiles, requestedRule: number): FmStructure {
  if (![0, 1, 2, 3].includes(requestedRule)) invalid(`allocation rule ${requestedRule} is not one of 0, 1, 2, 3`);
  const profileFile = files.names?.profile ?? 'fm_profile.csv';
  const programmeFile = files.names?.programme ?? 'fm_programme.csv';
  const { programme, policytc, xref } = files;
  const rows = programme.level.length;
  if (rows === 0) invalid(`${programmeFile} has no rows`);

  const stepsOf = new Map<number, ProfileStep[]>();
  for (const p of files.profiles) {
    checkCalcrule(p, files.stepped, profileFile);
    const list = stepsOf.get(p.profileId) ?? [];
    list.push(p);
    stepsOf.set(p.profileId, list);
  }

  let maxLevel = 0;
  for (let r = 0; r < rows; r++) maxLevel = Math.max(maxLevel, programme.level[r]);
  const levelLen = new Array<number>(maxLevel + 1).fill(0);
  let multiPeril = false;
  for (let r = 0; r < rows; r++) {
    const level = programme.level[r];
    if (level < 1) invalid(`${programmeFile} line ${r + 2}: level_id ${level} must be 1 or more`);
    if (level === 1 && programme.from[r] !== programme.to[r]) multiPeril = true;
    levelLen[level - 1] = Math.max(levelLen[level - 1], programme.from[r]);
    levelLen[level] = Math.max(levelLen[level], programme.to[r]);
  }
  for (let level = 1; level <= maxLevel; level++) {
    if (levelLen[level] === 0)
      invalid(
        `${programmeFile}: level ${level} has no rows, but level ${maxLevel} has; levels must run 1, 2, ... without gaps`,
      );
  }
  const startLevel = multiPeril ? 0 : 1;
  let allocRule: AllocationRule = requestedRule === 3 ? 2 : (requestedRule as AllocationRule);
  if (startLevel === maxLevel) allocRule = 0;
  const outLevel = allocRule === 0 ? maxLevel : startLevel;

  const nodes: FmNode[][] = [];
  for (let level = 0; level <= maxLevel; level++) {
    const list: FmNode[] = [];
    if (level >= startLevel) {
      for (let agg = 1; agg <= levelLen[level]; agg++) {
        list[agg] = {
          level,
          agg,
          layerLen: 0,
          crossLayer: false,
          profiles: [],
          profileLen: 1,
          hasExtras: false,
          parents: [],
          children: [],
        };
      }
    }
    nodes.push(list);
  }
  const nodeAt = (level: number, agg: number, line: number): FmNode => {
    const n = nodes[level]?.[agg];
    if (!n) invalid(`${programmeFile} line ${line}: agg_id ${agg} at level ${level} is not a node of the programme`);
    return n;
  };
  const childOf = (r: number): FmNode =>
    programme.from[r] > 0
      ? nodeAt(programme.level[r] - 1, programme.from[r], r + 2)
      : nodeAt(startLevel, -programme.from[r], r + 2);

  // Profiles per node, in layer order. A profile with % of TIV terms gets a fresh copy per use.
  const policyOf = new Map<FmNode, { layer: number; steps: ProfileStep[] }[]>();
  const tivProfiles = new Set<number>();
  for (const p of files.profiles) if (TIV_RULES.has(p.calcrule)) tivProfiles.add(p.profileId);
  for (let r = 0; r < policytc.level.length; r++) {
    const node = nodes[policytc.level[r]]?.[policytc.agg[r]];
    if (!node)
      invalid(
        `fm_policytc.csv line ${r + 2}: level ${policytc.level[r]} agg_id ${policytc.agg[r]} is not in ${programmeFile}`,
      );
    const original = stepsOf.get(policytc.profile[r]);
    if (!original) invalid(`fm_policytc.csv line ${r + 2}: profile_id ${policytc.profile[r]} is not in ${profileFile}`);
    const steps = tivProfiles.has(policytc.profile[r]) ? original.map((s) => ({ ...s })) : original;
    const list = policyOf.get(node) ?? [];
    list.push({ layer: policytc.layer[r], steps });
    policyOf.set(node, list);
  }
  for (const list of policyOf.values()) list.sort((a, b) => a.layer - b.layer);

  // Links: highest level first, each parent put in front, so a node's parents end up lower levels first.
  const layers = new Map<FmNode, number>();
  for (let r = 0; r < rows; r++) {
    const parent = nodeAt(programme.level[r], programme.to[r], r + 2);
    if (!layers.has(parent)) layers.set(parent, policyOf.get(parent)?.length ?? 0);
  }
  for (let level = maxLevel; level > startLevel; level--) {
    for (let r = 0; r < rows; r++) {
      if (programme.level[r] !== level) continue;
      const parent = nodeAt(level, programme.to[r], r + 2);
      const child = childOf(r);
      parent.children.push(child);
      child.parents.unshift(parent);
    }
  }

  // Layers flow down from the top; where a child has more layers than its tree's top, the top spans them.
  const layerSource = new Map<FmNode, FmNode>();
  const sourceOf = (n: FmNode): FmNode => layerSource.get(n) ?? n;
  for (let level = maxLevel; level > startLevel; level--) {
    for (let r = 0; r < rows; r++) {
      if (programme.level[r] !== level) continue;
      const parent = nodeAt(level, programme.to[r], r + 2);
      const child = childOf(r);
      const childLayers = layers.get(child) ?? 0;
      const parentLayers = layers.get(parent) ?? 0;
      if (childLayers === 0 || childLayers <= parentLayers) {
        layers.set(child, parentLayers);
        layerSource.set(child, sourceOf(parent));
      } else {
        for (const top of roots(parent)) {
          if ((layers.get(top) ?? 0) < childLayers) {
            top.crossLayer = true;
            layers.set(parent, childLayers);
          }
        }
      }
    }
  }

  let itemCount = 0;
  for (let level = startLevel; level <= maxLevel; level++) {
    for (let agg = 1; agg < nodes[level].length; agg++) {
      const node = nodes[level][agg];
      // A node no policy reaches still carries its loss on one layer.
      node.layerLen = Math.max(1, layers.get(node) ?? 0);
      if (level === startLevel) itemCount = Math.max(itemCount, agg);
      const policies = policyOf.get(node);
      if (policies) {
        node.profileLen = node.crossLayer ? node.layerLen : policies.length;
        for (const { steps } of policies) {
          const tiv = steps.some((s) => TIV_RULES.has(s.calcrule)) ? tivUnder(node, files, startLevel) : 0;
          let active = true;
          for (const s of steps) {
            if (files.stepped) prepareStepped(s, tiv);
            else prepareSimple(s, tiv);
            if (doesNothing(s)) active = false;
          }
          node.profiles.push(active ? steps : []);
          if (steps.some((s) => EXTRAS_RULES.has(s.calcrule))) markExtras(node);
        }
      } else {
        node.profileLen = 1;
        node.profiles.push([]);
      }
    }
  }

  // Outputs: per (agg_id, layer_id) of the output level, the layers named by the node's layer source.
  const outputOf = new Map<string, number>();
  const aggsWithOutput = new Set<number>();
  for (let r = 0; r < xref.output.length; r++) {
    outputOf.set(`${xref.agg[r]}:${xref.layer[r]}`, xref.output[r]);
    aggsWithOutput.add(xref.agg[r]);
  }
  for (let agg = 1; agg < nodes[outLevel].length; agg++) {
    const node = nodes[outLevel][agg];
    if (!aggsWithOutput.has(agg))
      invalid(
        `${files.names?.xref ?? 'fm_xref.csv'}: agg_id ${agg} (level ${outLevel}) has no output row; every ${allocRule === 0 ? 'top-level node' : 'item'} needs one per layer`,
      );
    node.outputIds = new Int32Array(node.layerLen);
    const sourcePolicies = policyOf.get(sourceOf(node)) ?? [];
    sourcePolicies.forEach((p, i) => {
      if (i < node.layerLen) node.outputIds![i] = outputOf.get(`${agg}:${p.layer}`) ?? 0;
    });
  }
  return { allocRule, startLevel, maxLevel, nodes, itemCount };
}

/** The top nodes (no parent) above a node, the node itself when it has none. */
function roots(node: FmNode): FmNode[] {
  const out = new Set<FmNode>();
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.parents.length === 0) out.add(n);
    else stack.push(...n.parents);
  }
  return [...out];
}

/** The items (nodes without children) under a node, or the node itself. */
function leavesUnder(node: FmNode): FmNode[] {
  const out: FmNode[] = [];
  const stack = [node];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.children.length === 0) out.push(n);
    else stack.push(...n.children);
  }
  return out;
}

function tivUnder(node: FmNode, files: FmFiles, startLevel: number): number {
  if (!files.itemCoverage || !files.coverageTiv) {
    invalid(
      `level ${node.level} agg_id ${node.agg} uses a % of TIV term, which needs items.csv and coverages.csv beside the fm files`,
    );
  }
  const seen = new Set<number>();
  let tiv = 0;
  for (const leaf of leavesUnder(node)) {
    if (leaf.level !== startLevel) continue;
    const coverage = files.itemCoverage.get(leaf.agg);
    if (coverage === undefined) invalid(`items.csv has no item_id ${leaf.agg}, which the programme uses`);
    if (seen.has(coverage)) continue;
    seen.add(coverage);
    tiv +=
      files.coverageTiv.get(coverage) ?? invalid(`coverages.csv has no coverage_id ${coverage} (item ${leaf.agg})`);
  }
  return tiv;
}

/**
 * A minimum or maximum deductible at `node` needs the running amounts of everything that feeds the
 * same-level nodes sharing its items: mark every node under them.
 */
function markExtras(node: FmNode): void {
  const tops = new Set<FmNode>();
  const stack = leavesUnder(node);
  while (stack.length) {
    const n = stack.pop()!;
    if (n.parents.length > 0) {
      stack.push(...n.parents);
      if (n.level === node.level) tops.add(n);
    } else if (n.level <= node.level) {
      tops.add(n);
    }
  }
  for (const top of tops) {
    const down = [top];
    while (down.length) {
      const n = down.pop()!;
      n.hasExtras = true;
      down.push(...n.children);
    }
  }
}
