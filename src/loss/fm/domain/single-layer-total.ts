/**
 * FinancialModule.total() (compute.ts) for the programmes most books make: every node on one layer, with
 * at most one profile and no minimum or maximum deductible (no running amounts to carry). The same
 * walk, the same additions in the same order and the same calc rules, so the same bits; but on flat
 * arrays indexed by node, with the loss vectors in a pool of arrays reused from event to event, where the
 * general engine builds maps, node states and fresh arrays for every node of every event (most of an
 * EP curve's time went there, and as much again in garbage collection).
 *
 * The walk, as compute.ts's: the nodes the event reaches at the start level, in the order given; at each
 * level, a node with several children reached sums them (in the order they reached it), a node with one
 * works on its child's vector, then its profile turns the vector into the loss after its terms; the
 * node goes to its first parent. The total adds the top nodes' vectors in agg_id order.
 */
import { CatintelError } from '../../../errors.js';
import { applyStep, type Extras } from './calcrules.js';
import type { ProfileStep } from './profile.js';
import type { FmStructure } from './structure.js';

export class SingleLayerTotal {
  /** Global index of (level, agg): offset[level] + agg. */
  private readonly offset: Int32Array;
  private readonly parent: Int32Array;
  private readonly agg: Int32Array;
  private readonly steps: (ProfileStep[] | undefined)[];
  // Per event: the node's vector (slot) and the children that reached it (a list of slots).
  private readonly slotOf: Int32Array;
  private readonly childCount: Int32Array;
  private readonly childHead: Int32Array;
  private readonly childTail: Int32Array;
  private slotNext = new Int32Array(64);
  private readonly pool: Float64Array[] = [];
  private slots = 0;
  private queue: Int32Array;
  private next: Int32Array;
  private queued = 0;
  private level = 0;
  private readonly out: Float64Array;
  private readonly scratch: Extras;
  private readonly sum: Float64Array;

  private constructor(
    private readonly structure: FmStructure,
    private readonly n: number,
  ) {
    const { startLevel, maxLevel, nodes } = structure;
    this.offset = new Int32Array(maxLevel + 2);
    let size = 0;
    for (let level = 0; level <= maxLevel; level++) {
      this.offset[level] = size;
      size += level >= startLevel ? nodes[level].length : 0;
    }
    this.offset[maxLevel + 1] = size;
    this.parent = new Int32Array(size).fill(-1);
    this.agg = new Int32Array(size);
    this.steps = new Array(size);
    for (let level = startLevel; level <= maxLevel; level++) {
      for (let agg = 1; agg < nodes[level].length; agg++) {
        const node = nodes[level][agg];
        if (!node) continue;
        const i = this.offset[level] + agg;
        this.agg[i] = agg;
        this.steps[i] = node.profiles[0]?.length ? node.profiles[0] : undefined;
        if (node.parents.length) this.parent[i] = this.offset[node.parents[0].level] + node.parents[0].agg;
      }
    }
    this.slotOf = new Int32Array(size);
    this.childCount = new Int32Array(size);
    this.childHead = new Int32Array(size);
    this.childTail = new Int32Array(size);
    this.queue = new Int32Array(64);
    this.next = new Int32Array(64);
    this.out = new Float64Array(n);
    this.scratch = { ded: new Float64Array(n), over: new Float64Array(n), under: new Float64Array(n) };
    this.sum = new Float64Array(n);
  }

  /**
   * The fast total of a structure, or undefined when some node has several layers or profiles, a
   * cross-layer profile, running amounts, or no parent below the top level (items that skip levels):
   * those run through the general engine.
   */
  static of(structure: FmStructure, vectors: number): SingleLayerTotal | undefined {
    const { startLevel, maxLevel, nodes } = structure;
    for (let level = startLevel; level <= maxLevel; level++) {
      for (const node of nodes[level]) {
        if (!node) continue;
        if (node.layerLen !== 1 || node.profileLen !== 1 || node.crossLayer || node.hasExtras) return undefined;
        if (level < maxLevel && node.parents.length === 0) return undefined;
        if (node.parents.length > 1) return undefined;
      }
    }
    return new SingleLayerTotal(structure, vectors);
  }

  /** Starts an event whose losses enter at `level`. */
  start(level: number): void {
    const { startLevel, maxLevel } = this.structure;
    if (level < startLevel || level > maxLevel)
      throw new CatintelError(
        'invalid_input',
        `level ${level} is not a level of the programme (${startLevel} to ${maxLevel})`,
      );
    this.level = level;
    this.slots = 0;
    this.queued = 0;
  }

  /** The vector to fill with node `agg`'s loss (nodes in the order their losses are added up). */
  input(agg: number): Float64Array {
    const level = this.level;
    const nodes = this.structure.nodes[level];
    if (!nodes[agg])
      throw new CatintelError('invalid_input', `agg_id ${agg} is not a node of level ${level} of the programme`);
    const i = this.offset[level] + agg;
    const slot = this.newSlot();
    this.slotOf[i] = slot;
    this.childCount[i] = 0;
    this.push(i);
    return this.pool[slot];
  }

  /** The event's loss summed over every top node, per vector (the array is reused by the next event). */
  total(): Float64Array {
    const n = this.n;
    const maxLevel = this.structure.maxLevel;
    const { pool, childCount, childHead, childTail, slotOf, steps, parent, out, scratch } = this;
    for (let level = this.level; level <= maxLevel; level++) {
      // This level's nodes are those pushed so far; the nodes they reach are pushed into the other buffer.
      const queue = this.next;
      const count = this.queued;
      this.next = this.queue;
      this.queue = queue;
      this.queued = 0;
      for (let q = 0; q < count; q++) {
        const node = queue[q];
        const kids = childCount[node];
        let storage: number;
        if (kids > 1) {
          storage = this.newSlot();
          const sum = pool[storage];
          sum.fill(0);
          for (let c = childHead[node], k = 0; k < kids; k++, c = this.slotNext[c]) {
            const cl = pool[c];
            for (let s = 0; s < n; s++) sum[s] += cl[s];
          }
        } else if (kids === 1) storage = childHead[node];
        else storage = slotOf[node];
        childCount[node] = 0;
        const st = steps[node];
        if (st) {
          const inp = pool[storage];
          out.fill(0);
          scratch.ded.fill(0);
          scratch.over.fill(0);
          scratch.under.fill(0);
          for (const step of st) applyStep(step, out, inp, scratch, n);
          inp.set(out);
        }
        if (level !== maxLevel) {
          const p = parent[node];
          if (childCount[p] === 0) {
            childHead[p] = storage;
            this.push(p);
          } else this.slotNext[childTail[p]] = storage;
          childTail[p] = storage;
          childCount[p]++;
        } else slotOf[node] = storage;
      }
      if (level === maxLevel) {
        // The top nodes in agg_id order, as compute.ts adds them.
        const tops = queue.subarray(0, count).sort();
        const sum = this.sum;
        sum.fill(0);
        for (const node of tops) {
          const v = pool[slotOf[node]];
          for (let s = 0; s < n; s++) sum[s] += v[s];
        }
        return sum;
      }
    }
    return this.sum.fill(0);
  }

  private push(node: number): void {
    if (this.queued === this.next.length) {
      const grown = new Int32Array(this.next.length * 2);
      grown.set(this.next);
      this.next = grown;
    }
    this.next[this.queued++] = node;
  }

  private newSlot(): number {
    const s = this.slots++;
    if (s === this.pool.length) this.pool.push(new Float64Array(this.n));
    if (s === this.slotNext.length) {
      const grown = new Int32Array(this.slotNext.length * 2);
      grown.set(this.slotNext);
      this.slotNext = grown;
    }
    return s;
  }
}
