/**
 * One event through the financial structure, level by level as fmpy runs it. Each node reached by the
 * event's items holds, per layer, its loss for every sample (and, under a minimum or maximum
 * deductible, its running deductible / over-limit / under-limit amounts). Layers of a node share one
 * array until a node above applies different profiles to them: that sharing is part of the rules (a
 * node with fewer profiles than layers gives every further layer the first layer's result).
 *
 * Per node: add up the children (a node with one child works on the child's arrays), apply the
 * profile of each layer (or the cross-layer profile to the sum of the layers), share the result back to
 * the items under it (allocation rule 2), then hand the node to its parent. Allocation rule 1 shares
 * the top result back to the items pro rata to their ground-up loss; rule 0 reports the top nodes.
 */
import { CatintelError } from '../../../errors.js';
import { applyStep, type Extras } from './calcrules.js';
import {
  shareAcrossLayers,
  shareAcrossLayersWithExtras,
  shareLoss,
  shareLossAndExtras,
  type ItemLayer,
} from './back-allocation.js';
import type { FmNode, FmStructure } from './structure.js';

interface NodeState {
  loss: Float64Array[];
  extras?: Extras[];
  /** The loss as it came in (items only), kept for allocation rule 1 and for net losses. */
  input?: Float64Array;
  /** The children that reached the node in this event, in the order they did. */
  children: FmNode[];
}

/** One output of an event: an output id and its loss per sample. */
export interface FmOutput {
  outputId: number;
  loss: Float64Array;
}

const zeros = (n: number): Extras => ({
  ded: new Float64Array(n),
  over: new Float64Array(n),
  under: new Float64Array(n),
});
const cleared = (x: Extras): Extras => {
  x.ded.fill(0);
  x.over.fill(0);
  x.under.fill(0);
  return x;
};
const copyExtras = (x: Extras): Extras => ({ ded: x.ded.slice(), over: x.over.slice(), under: x.under.slice() });
function addExtras(into: Extras, x: Extras): void {
  for (let s = 0; s < into.ded.length; s++) {
    into.ded[s] += x.ded[s];
    into.over[s] += x.over[s];
    into.under[s] += x.under[s];
  }
}

export class FinancialModule {
  /**
   * @param samples losses per (event, item): 1 for a guls.csv, more for sampled runs
   * @param keepInput keep each item's incoming loss (needed for net losses; rule 1 always keeps it)
   */
  constructor(
    readonly structure: FmStructure,
    readonly samples: number,
    private readonly keepInput = false,
  ) {}

  /**
   * The event's outputs: `items` in the order they arrive (item id -> loss per sample). With `net`,
   * each output is the loss left after the layers up to it (reinsurance inuring levels pass this on).
   */
  run(items: [number, Float64Array][], net = false): FmOutput[] {
    if (net && this.structure.allocRule === 0)
      throw new CatintelError(
        'invalid_input',
        'net losses need allocation rule 1, 2 or 3 (rule 0 reports no per-item losses)',
      );
    return this.execute(this.structure.startLevel, items, net ? 'net' : 'outputs') as FmOutput[];
  }

  /**
   * The event's outputs both ways in one pass: `gross` as run() gives them, `net` as run(items, true)
   * gives them (reinsurance reports both: what a level takes and what it passes on).
   */
  runGrossAndNet(items: [number, Float64Array][]): { gross: FmOutput[]; net: FmOutput[] } {
    if (this.structure.allocRule === 0)
      throw new CatintelError(
        'invalid_input',
        'net losses need allocation rule 1, 2 or 3 (rule 0 reports no per-item losses)',
      );
    const net = this.execute(this.structure.startLevel, items, 'both') as FmOutput[];
    return { gross: this.grossCopies, net };
  }

  /** The gross outputs of the last 'both' pass. */
  private grossCopies: FmOutput[] = [];

  /**
   * The event's loss summed over every top node and layer, per sample, from the losses of the nodes of
   * `level` (agg_id -> loss per sample, in the order they are added up): the insured total of a summary
   * over all risks. Allocation does not change it, so nothing is shared back to items. Top nodes are
   * added in agg_id order, each node's layers in layer order.
   */
  total(level: number, nodes: [number, Float64Array][]): Float64Array {
    if (level < this.structure.startLevel || level > this.structure.maxLevel)
      throw new CatintelError(
        'invalid_input',
        `level ${level} is not a level of the programme (${this.structure.startLevel} to ${this.structure.maxLevel})`,
      );
    return this.execute(level, nodes, 'total') as Float64Array;
  }

  private execute(
    startLevel: number,
    items: [number, Float64Array][],
    mode: 'outputs' | 'net' | 'both' | 'total',
  ): FmOutput[] | Float64Array {
    const { structure: fs, samples: n } = this;
    const net = mode === 'net' || mode === 'both';
    const gross: FmOutput[] = (this.grossCopies = []);
    const total = mode === 'total';
    const keep = !total && (this.keepInput || net || fs.allocRule === 1);
    const state = new Map<FmNode, NodeState>();
    const stateOf = (node: FmNode): NodeState => state.get(node)!;
    /** Running amounts for a node that keeps none: the calc rules write them, nothing reads them after. */
    const scratch = zeros(n);
    const nextParent = new Map<FmNode, number>();
    const storageOf = new Map<FmNode, FmNode>();

    let queue: FmNode[] = [];
    for (const [itemId, losses] of items) {
      const node = fs.nodes[startLevel][itemId];
      if (!node)
        throw new CatintelError(
          'invalid_input',
          startLevel === fs.startLevel
            ? `item_id ${itemId} is not an item of the programme (fm_programme knows items 1 to ${fs.itemCount})`
            : `agg_id ${itemId} is not a node of level ${startLevel} of the programme`,
        );
      if (state.has(node))
        throw new CatintelError(
          'invalid_input',
          `${startLevel === fs.startLevel ? 'item_id' : 'agg_id'} ${itemId} has two losses in one event`,
        );
      // slice, not Float64Array.from: the same copy without the iterator protocol (5-10x faster per item).
      const first = losses.slice(0, n);
      state.set(node, { loss: new Array<Float64Array>(node.layerLen).fill(first), children: [] });
      queue.push(node);
    }
    const itemQueue = queue;
    let topQueue = queue;

    /** The items under a node in this event, breadth first (the node itself when it has no children). */
    const itemsUnder = (node: FmNode): FmNode[] => {
      const kids = stateOf(node).children;
      if (kids.length === 0) return [node];
      const found: FmNode[] = [];
      const pending = [...kids];
      for (let i = 0; i < pending.length; i++) {
        const c = pending[i];
        const cc = stateOf(c).children;
        if (cc.length) pending.push(...cc);
        else found.push(c);
      }
      return found;
    };

    /** The first time a node splits layers, the items under it get their own copy of each layer. */
    const splitLayers = (count: number, under: FmNode[], withExtras: boolean): void => {
      for (const item of under) {
        const st = stateOf(item);
        for (let p = 1; p < count; p++) {
          st.loss[p] = st.loss[0].slice();
          if (withExtras && st.extras) st.extras[p] = under.length === 1 ? copyExtras(st.extras[0]) : zeros(n);
        }
      }
    };

    const register = (parent: FmNode | undefined, child: FmNode, from: FmNode, next: FmNode[]): void => {
      if (!parent)
        throw new CatintelError(
          'invalid_input',
          `level ${from.level} agg_id ${from.agg} has no parent, but the programme goes up to level ${fs.maxLevel}`,
        );
      let ps = state.get(parent);
      if (!ps) {
        ps = { loss: [], children: [] };
        state.set(parent, ps);
      }
      ps.children.push(child);
      if (ps.children.length === 1) next.push(parent);
    };

    for (let level = startLevel; level <= fs.maxLevel; level++) {
      const next: FmNode[] = [];
      for (const node of queue) {
        const own = stateOf(node);
        const before: (Extras | undefined)[] = [];
        let storage: FmNode;

        if (own.children.length > 1) {
          storage = node;
          own.loss = new Array<Float64Array>(node.layerLen);
          if (node.hasExtras) own.extras = new Array<Extras>(node.layerLen);
          for (let p = 0; p < node.profileLen; p++) {
            const sum = new Float64Array(n);
            const sumExtras = node.hasExtras ? zeros(n) : undefined;
            for (const child of own.children) {
              const cs = stateOf(child);
              if (p === 1 && !total && cs.loss[1] === cs.loss[0])
                splitLayers(node.profileLen, itemsUnder(child), node.hasExtras);
              const cl = cs.loss[p];
              for (let s = 0; s < n; s++) sum[s] += cl[s];
              if (sumExtras) addExtras(sumExtras, cs.extras![p]);
            }
            own.loss[p] = sum;
            if (sumExtras) {
              own.extras![p] = sumExtras;
              before[p] = copyExtras(sumExtras);
            }
          }
          for (let l = node.profileLen; l < node.layerLen; l++) {
            own.loss[l] = own.loss[0];
            if (own.extras) own.extras[l] = own.extras[0];
          }
        } else if (own.children.length === 1) {
          storage = own.children[0];
          const ss = stateOf(storage);
          if (node.profileLen > 1 && ss.loss[1] === ss.loss[0]) {
            for (let p = 1; p < node.profileLen; p++) ss.loss[p] = ss.loss[0].slice();
            if (node.hasExtras) for (let p = 1; p < node.profileLen; p++) ss.extras![p] = copyExtras(ss.extras![0]);
            if (!total) {
              const under = itemsUnder(storage);
              if (under.length > 1) splitLayers(node.profileLen, under, node.hasExtras);
            }
          }
          if (ss.children.length && node.hasExtras) {
            for (let p = 0; p < node.profileLen; p++) {
              if (node.crossLayer || node.profiles[p].length > 0) before[p] = copyExtras(ss.extras![p]);
            }
          }
        } else {
          storage = node;
          if (node.hasExtras) {
            own.extras = new Array<Extras>(node.layerLen).fill(zeros(n));
            before[0] = zeros(n);
          }
          for (let p = 1; p < node.profileLen; p++) {
            own.loss[p] = own.loss[0].slice();
            if (own.extras) {
              own.extras[p] = zeros(n);
              before[p] = zeros(n);
            }
          }
          if (keep) own.input = own.loss[0].slice();
        }
        storageOf.set(node, storage);
        const ss = stateOf(storage);

        // A cross-layer profile works on the sum of the layers; each layer then takes its share.
        let layerShares: Float64Array[] | undefined;
        if (node.crossLayer && node.profiles[0].length > 0) {
          const merged = new Float64Array(n);
          for (let l = 0; l < node.layerLen; l++) for (let s = 0; s < n; s++) merged[s] += ss.loss[l][s];
          const out = new Float64Array(n);
          layerShares = Array.from({ length: node.layerLen }, () => new Float64Array(n));
          if (node.hasExtras) {
            const mergedExtras = zeros(n);
            for (let l = 0; l < node.layerLen; l++) addExtras(mergedExtras, ss.extras![l]);
            const saved = copyExtras(mergedExtras);
            for (const step of node.profiles[0]) applyStep(step, out, merged, mergedExtras, n);
            shareAcrossLayersWithExtras(
              ss.loss.slice(0, node.layerLen),
              ss.extras!.slice(0, node.layerLen),
              merged,
              out,
              mergedExtras,
              saved,
              layerShares,
              n,
            );
          } else {
            const scratch = zeros(n);
            for (const step of node.profiles[0]) applyStep(step, out, merged, scratch, n);
            shareAcrossLayers(ss.loss.slice(0, node.layerLen), merged, out, layerShares, n);
          }
        }

        let under: FmNode[] | undefined;
        for (let p = 0; p < node.profileLen; p++) {
          const steps = node.crossLayer ? node.profiles[0] : node.profiles[p];
          if (steps.length === 0) continue;
          const inp = ss.loss[p];
          let out: Float64Array;
          if (layerShares) out = layerShares[p];
          else {
            out = new Float64Array(n);
            const x = node.hasExtras ? ss.extras![p] : cleared(scratch);
            for (const step of steps) applyStep(step, out, inp, x, n);
          }
          // Totals need no item shares: only back-allocation (rule 2's outputs, the levels above) reads them.
          const sharing = fs.allocRule === 2 && !total ? (under ??= itemsUnder(storage)) : [];
          const targets: ItemLayer[] = sharing.map((item) => ({
            loss: stateOf(item).loss[p],
            extras: stateOf(item).extras?.[p],
          }));
          if (node.hasExtras) shareLossAndExtras(targets, inp, out, ss.extras![p], before[p], n);
          else shareLoss(targets, inp, out, n);
        }

        if (level !== fs.maxLevel) {
          if (node.parents.length) register(node.parents[0], storage, node, next);
          else {
            // Items that skip this node's level go on to their next parent.
            under ??= itemsUnder(storage);
            for (const item of under) {
              const i = nextParent.get(item) ?? 1;
              nextParent.set(item, i + 1);
              register(item.parents[i], item, node, next);
            }
          }
        } else if (fs.allocRule === 1 && !total) {
          under ??= itemsUnder(storage);
          if (under.length > 1) {
            const total = new Float64Array(n);
            for (const item of under) {
              const input = stateOf(item).input!;
              for (let s = 0; s < n; s++) total[s] += input[s];
            }
            for (let p = 0; p < node.profileLen; p++) {
              const nodeLoss = ss.loss[p];
              const ratio = new Float64Array(n);
              for (let s = 0; s < n; s++) ratio[s] = nodeLoss[s] ? nodeLoss[s] / total[s] : 0;
              for (const item of under) {
                const st = stateOf(item);
                for (let s = 0; s < n; s++) st.loss[p][s] = st.input![s] * ratio[s];
              }
            }
          }
        }
      }
      if (level === fs.maxLevel) topQueue = queue;
      queue = next;
    }

    if (total) {
      const sum = new Float64Array(n);
      for (const node of [...topQueue].sort((a, b) => a.agg - b.agg)) {
        const st = stateOf(storageOf.get(node) ?? node);
        for (let l = 0; l < node.layerLen; l++) for (let s = 0; s < n; s++) sum[s] += st.loss[l][s];
      }
      return sum;
    }
    const outputs: FmOutput[] = [];
    const reported = fs.allocRule === 0 ? topQueue : itemQueue;
    for (const node of reported) {
      const ids = node.outputIds;
      if (!ids) continue;
      const st = stateOf(storageOf.get(node) ?? node);
      let left = st.input;
      // Gross copies first: layers may share one array, which the net pass below rewrites.
      if (mode === 'both')
        for (let l = 0; l < node.layerLen; l++) if (ids[l]) gross.push({ outputId: ids[l], loss: st.loss[l].slice() });
      for (let l = 0; l < node.layerLen; l++) {
        const loss = st.loss[l];
        if (net) {
          // Net of this layer: what the layers up to it leave of the incoming loss.
          for (let s = 0; s < n; s++) loss[s] = Math.max(left![s] - loss[s], 0);
          left = loss;
        }
        if (ids[l]) outputs.push({ outputId: ids[l], loss });
      }
    }
    return outputs;
  }
}
