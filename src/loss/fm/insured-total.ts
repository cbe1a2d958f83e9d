/**
 * The insured loss of a summary over all risks, for the event loop of `catintel oasis run`: the kernel
 * adds the items' losses into level 1 of the programme (in its WebAssembly module, or below for the
 * reference path), and this engine takes the programme from level 1 to the top for every loss vector at
 * once (mean, maximum, exposure, each sample: one "sample" of the engine each). Level 1's sums are the
 * same additions, in the same order, that the engine itself would make, so the result is the engine's.
 */
import { CatintelError } from '../../errors.js';
import { FinancialModule, type FmOutput } from './domain/compute.js';
import { FlatTotal } from './domain/flat-total.js';
import { buildStructure, type FmFiles, type FmStructure } from './domain/structure.js';
import { readFmFiles } from './read-fm-files.js';
import { InputFiles } from '../io/input-files.js';

/** Level 1 of the programme as the kernel's module lays it out: to_agg_id by item id (0: none), and the largest agg_id. */
export interface LevelOneMap {
  toAgg: Int32Array;
  maxAgg: number;
}

/** What the event loop needs, as plain data (it is sent to worker threads). */
export interface InsuredPlan {
  files: FmFiles;
  levelOne: LevelOneMap;
  /**
   * The kernel hands over each item's losses (levelOne maps every item to itself) and `files` is the
   * whole programme, so the engine can also give the losses per output (allocation rule 2), which the
   * reinsurance levels run on. Otherwise the kernel adds the items into level 1 and only totals are known.
   */
  perItem: boolean;
}

/** Direct insurance as Oasis runs it; the total does not depend on it, but the files are checked for it. */
const DIRECT_ALLOC_RULE = 2;

/**
 * The structure of a plan's files, built once per files object in a thread: planInsured builds it to refuse
 * bad files before the run, and the kernel's engine on the same thread runs it (a book of 100,000
 * locations takes half a second to build). The engines only read it. A worker thread gets a copy of the
 * plan, so it builds its own.
 */
const structures = new WeakMap<FmFiles, FmStructure>();
function structureOf(files: FmFiles): FmStructure {
  let structure = structures.get(files);
  if (!structure) {
    structure = buildStructure(files, DIRECT_ALLOC_RULE);
    structures.set(files, structure);
  }
  return structure;
}

/**
 * The programme from level 1 up, with level 1's agg_ids as its items: what the event loop runs, since it
 * adds the items into level 1 itself. Built from a few nodes instead of one per item, so a large
 * portfolio is planned in milliseconds (and again in each worker thread). Outputs are made up per
 * level-1 node and layer (the total does not read them). Terms in % of TIV keep their TIV: each level-1
 * node becomes one coverage holding the TIV of the coverages under it, which is exact when no coverage
 * sits under two level-1 nodes; otherwise undefined (the full programme is planned instead).
 */
function fromLevelOne(files: FmFiles, levelOne: LevelOneMap): FmFiles | undefined {
  const { from, level, to } = files.programme;
  const aggs: number[] = [];
  const seen = new Uint8Array(levelOne.maxAgg + 1);
  for (const a of levelOne.toAgg) {
    if (a > 0 && !seen[a]) {
      seen[a] = 1;
      aggs.push(a);
    }
  }
  aggs.sort((a, b) => a - b);
  const rows = { from: [] as number[], level: [] as number[], to: [] as number[] };
  for (const a of aggs) {
    rows.from.push(a);
    rows.level.push(1);
    rows.to.push(a);
  }
  for (let r = 0; r < level.length; r++) {
    if (level[r] <= 1) continue;
    rows.from.push(from[r]);
    rows.level.push(level[r]);
    rows.to.push(to[r]);
  }
  let layers = 1;
  for (const l of Array.from(files.policytc.layer)) layers = Math.max(layers, l);
  const xref = { output: [] as number[], agg: [] as number[], layer: [] as number[] };
  for (const a of aggs) {
    for (let l = 1; l <= layers; l++) {
      xref.output.push(xref.output.length + 1);
      xref.agg.push(a);
      xref.layer.push(l);
    }
  }
  const reduced: FmFiles = {
    programme: rows,
    policytc: files.policytc,
    profiles: files.profiles,
    stepped: files.stepped,
    xref,
  };
  if (files.itemCoverage && files.coverageTiv) {
    const ownerOf = new Map<number, number>();
    const tivOf = new Map<number, number>();
    for (const [item, coverage] of files.itemCoverage) {
      const a = item < levelOne.toAgg.length ? levelOne.toAgg[item] : 0;
      if (a <= 0) continue;
      const owner = ownerOf.get(coverage);
      if (owner === undefined) {
        ownerOf.set(coverage, a);
        tivOf.set(a, (tivOf.get(a) ?? 0) + (files.coverageTiv.get(coverage) ?? 0));
      } else if (owner !== a) return undefined;
    }
    reduced.itemCoverage = new Map(aggs.map((a) => [a, a]));
    reduced.coverageTiv = new Map(aggs.map((a) => [a, tivOf.get(a) ?? 0]));
  }
  return reduced;
}

/**
 * The plan of the input directory's fm files, or undefined when it has none. `perItem` when the losses
 * per output are needed (reinsurance): the whole programme, items handed over one by one.
 */
export function planInsured(dir: string | InputFiles, perItem = false): InsuredPlan | undefined {
  const input = InputFiles.of(dir);
  if (!input.has('fm_programme.csv')) return undefined;
  const files = readFmFiles(input);
  const { from, level, to } = files.programme;
  let maxFrom = 0;
  let maxAgg = 0;
  for (let r = 0; r < level.length; r++) {
    if (level[r] !== 1) continue;
    if (from[r] < 1)
      throw new CatintelError(
        'invalid_input',
        `fm_programme.csv line ${r + 2}: from_agg_id ${from[r]} at level 1 must be an item_id (1 or more)`,
      );
    maxFrom = Math.max(maxFrom, from[r]);
    maxAgg = Math.max(maxAgg, to[r]);
  }
  // Items that skip levels leave the top nodes' sum short of (or past) the sum of the items' outputs
  // Oasis reports (17 % on oasislmf's insurance_policy_coverage case): refused, not computed otherwise.
  for (let r = 0; r < level.length; r++) {
    if (from[r] < 0)
      throw new CatintelError(
        'invalid_input',
        `fm_programme.csv line ${r + 2}: from_agg_id ${from[r]} links item ${-from[r]} past level ${level[r] - 1}; oasis run does not run programmes whose items skip levels yet`,
      );
  }
  const toAgg = new Int32Array(maxFrom + 1);
  for (let r = 0; r < level.length; r++) if (level[r] === 1) toAgg[from[r]] = perItem ? from[r] : to[r];
  const levelOne = { toAgg, maxAgg: perItem ? maxFrom : maxAgg };
  const plan = { files: perItem ? files : (fromLevelOne(files, levelOne) ?? files), levelOne, perItem };
  structureOf(plan.files); // refuses bad files before the run, naming the value
  return plan;
}

export class InsuredTotal {
  private readonly engine: FinancialModule;
  /** The same totals on flat arrays, for the programmes it takes (no cross-layer profile, no level skipped). */
  private readonly fast?: FlatTotal;
  /**
   * Level 1's sums, agg_id by agg_id, each node's `vectors` loss vectors side by side (node a's vector k at
   * a * vectors + k): the kernel's module's own memory when it fills them.
   */
  readonly sums: Float64Array;

  constructor(
    readonly plan: InsuredPlan,
    readonly vectors: number,
    sums?: Float64Array,
  ) {
    this.engine = new FinancialModule(structureOf(plan.files), vectors);
    this.fast = FlatTotal.of(this.engine.structure, vectors);
    const size = plan.levelOne.maxAgg + 1;
    this.sums = sums && sums.length >= size * vectors ? sums : new Float64Array(size * vectors);
    this.touchedMark = new Uint8Array(size);
    this.touched = new Int32Array(size);
  }

  /**
   * The level-1 nodes an event's items reached (touched[0..touchedCount), marked in touchedMark): an event
   * reaches a few of a book's nodes, so clearing and collecting walk those, not every node.
   */
  private readonly touchedMark: Uint8Array;
  private readonly touched: Int32Array;
  private touchedCount = 0;

  private touch(agg: number): void {
    if (this.touchedMark[agg]) return;
    this.touchedMark[agg] = 1;
    this.touched[this.touchedCount++] = agg;
  }

  /** Zeroes level 1's sums before an event's items are added in. */
  clear(): void {
    const K = this.vectors;
    for (let t = 0; t < this.touchedCount; t++) {
      const a = this.touched[t];
      this.sums.fill(0, a * K, a * K + K);
      this.touchedMark[a] = 0;
    }
    this.touchedCount = 0;
  }

  /**
   * Adds vector k's item losses into level 1, items in list order: values[offset + list[j] * stride] is the loss of
   * item ids[list[j]], counted when keep[list[j]].
   */
  addItems(
    k: number,
    list: Int32Array,
    count: number,
    keep: Uint8Array,
    ids: Int32Array,
    values: Float64Array,
    offset: number,
    stride = 1,
  ): void {
    const toAgg = this.plan.levelOne.toAgg;
    const { sums, vectors: K } = this;
    for (let j = 0; j < count; j++) {
      const i = list[j];
      if (!keep[i]) continue;
      const from = ids[i];
      if (from >= 1 && from < toAgg.length && toAgg[from] > 0) {
        sums[toAgg[from] * K + k] += values[offset + i * stride];
        this.touch(toAgg[from]);
      }
    }
  }

  /**
   * Marks the level-1 nodes of the items ids[list[0..count)] as reached, when something else (the kernel's
   * module) adds their losses into the sums: clear() and total() then see them.
   */
  reachedItems(list: Int32Array, count: number, ids: Int32Array): void {
    const toAgg = this.plan.levelOne.toAgg;
    for (let j = 0; j < count; j++) {
      const from = ids[list[j]];
      if (from >= 1 && from < toAgg.length && toAgg[from] > 0) this.touch(toAgg[from]);
    }
  }

  /** Adds vector k's losses given by item id (byItemId[id]), in item id order. */
  addByItemId(k: number, byItemId: Float64Array): void {
    const toAgg = this.plan.levelOne.toAgg;
    const { sums, vectors: K } = this;
    const n = Math.min(byItemId.length, toAgg.length);
    for (let from = 1; from < n; from++) {
      if (toAgg[from] > 0 && byItemId[from] !== 0) {
        sums[toAgg[from] * K + k] += byItemId[from];
        this.touch(toAgg[from]);
      }
    }
  }

  /**
   * The insured total of each vector, from level 1's sums (or, per item, from the items: the engine then
   * adds them into level 1 in item order, as the kernel would) through the rest of the programme.
   */
  total(): Float64Array {
    // Level-1 sums enter at level 1; items at the programme's item level (0 for a multi-peril programme).
    const level = this.plan.perItem ? this.engine.structure.startLevel : 1;
    const fast = this.fast;
    if (!fast) return this.engine.total(level, this.nodes());
    // As nodes() hands them to the engine: the reached nodes in id order, those with no loss left out.
    fast.start(level);
    this.eachReached((a, at) => fast.inputFrom(a, this.sums, at));
    return fast.total().slice();
  }

  /** The losses per output of the event (allocation rule 2), every vector; needs a per-item plan. */
  outputs(): FmOutput[] {
    if (!this.plan.perItem) throw new Error('losses per output need a per-item plan');
    return this.engine.run(this.nodes());
  }

  /** The nodes the kernel filled (level-1 nodes, or items), each with its loss vectors, in id order. */
  private nodes(): [number, Float64Array][] {
    const nodes: [number, Float64Array][] = [];
    this.eachReached((a, at) => nodes.push([a, this.sums.slice(at, at + this.vectors)]));
    return nodes;
  }

  /** Each reached node with some loss, in id order: its agg_id and where its vectors start in `sums`. */
  private eachReached(visit: (agg: number, at: number) => void): void {
    const { sums, vectors: K } = this;
    for (const a of this.touched.subarray(0, this.touchedCount).sort()) {
      const at = a * K;
      let any = false;
      for (let k = 0; k < K && !any; k++) any = sums[at + k] !== 0;
      if (any) visit(a, at);
    }
  }
}
