/**
 * FinancialModule.total() (compute.ts) on flat arrays, for the programmes books make: any number of
 * layers and profiles per node, minimum and maximum deductibles (the running amounts), each node below
 * the top with one parent. The same walk, the same additions in the same order and the same calc rules,
 * so the same bits; but on arrays indexed by node, with the vectors in pools reused from event to event,
 * where the general engine builds maps, node states and fresh arrays for every node of every event (most
 * of an insured run's time went there, and as much again in garbage collection).
 *
 * The walk, as compute.ts's: the nodes the event reaches at the start level, in the order given; at each
 * level, a node with several children reached sums them layer by layer (in the order they reached it), a
 * node with one works on its child's vectors, then each layer's profile turns that layer's vector into
 * the loss after its terms; the node goes to its first parent. The total adds the top nodes' layers in
 * agg_id order, each node's layers in layer order.
 *
 * Layers share vectors as compute.ts's arrays do (the rules depend on it: a node with fewer profiles than
 * layers gives every further layer the first layer's result), so a node holds a slot per layer and two
 * layers may hold the same slot; a copy takes a new slot. Running amounts (deductible, over-limit,
 * under-limit) are held the same way, three vectors to a slot, on the nodes that carry them.
 * Left to the general engine: cross-layer profiles, and items that skip levels.
 */
import { CatintelError } from '../../../errors.js';
import { applyStep, type Extras } from './calcrules.js';
import type { ProfileStep } from './profile.js';
import type { FmStructure } from './structure.js';

/** Vectors of one length, handed out by number and all returned at once when an event starts. */
class VectorPool<T> {
  private readonly items: T[] = [];
  private used = 0;
  constructor(private readonly make: () => T) {}
  take(): number {
    const s = this.used++;
    if (s === this.items.length) this.items.push(this.make());
    return s;
  }
  get(slot: number): T {
    return this.items[slot];
  }
  reset(): void {
    this.used = 0;
  }
}

export class FlatTotal {
  /** Global index of (level, agg): offset[level] + agg. */
  private readonly offset: Int32Array;
  private readonly parent: Int32Array;
  private readonly layerLen: Int32Array;
  private readonly profileLen: Int32Array;
  private readonly hasExtras: Uint8Array;
  /** The steps of node i's profile p at i * L + p (undefined: the profile changes nothing). */
  private readonly steps: (ProfileStep[] | undefined)[];
  /** The most layers any node has: each node holds L slots. */
  private readonly L: number;
  // Per event: each layer's loss slot and running-amounts slot, and the nodes that reached each node.
  private readonly lossSlot: Int32Array;
  private readonly extrasSlot: Int32Array;
  private readonly childCount: Int32Array;
  private readonly childHead: Int32Array;
  private readonly childTail: Int32Array;
  private readonly sibling: Int32Array;
  /** The node holding a top node's vectors (itself, or the child it took over). */
  private readonly storageOf: Int32Array;
  private readonly losses: VectorPool<Float64Array>;
  private readonly extras: VectorPool<Extras>;
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
    let L = 1;
    for (let level = 0; level <= maxLevel; level++) {
      this.offset[level] = size;
      if (level < startLevel) continue;
      size += nodes[level].length;
      for (const node of nodes[level]) if (node) L = Math.max(L, node.layerLen, node.profileLen);
    }
    this.offset[maxLevel + 1] = size;
    this.L = L;
    this.parent = new Int32Array(size).fill(-1);
    this.layerLen = new Int32Array(size);
    this.profileLen = new Int32Array(size);
    this.hasExtras = new Uint8Array(size);
    this.steps = new Array(size * L);
    for (let level = startLevel; level <= maxLevel; level++) {
      for (let agg = 1; agg < nodes[level].length; agg++) {
        const node = nodes[level][agg];
        if (!node) continue;
        const i = this.offset[level] + agg;
        this.layerLen[i] = node.layerLen;
        this.profileLen[i] = node.profileLen;
        this.hasExtras[i] = node.hasExtras ? 1 : 0;
        for (let p = 0; p < node.profileLen; p++)
          this.steps[i * L + p] = node.profiles[p]?.length ? node.profiles[p] : undefined;
        if (node.parents.length) this.parent[i] = this.offset[node.parents[0].level] + node.parents[0].agg;
      }
    }
    this.lossSlot = new Int32Array(size * L);
    this.extrasSlot = new Int32Array(size * L);
    this.childCount = new Int32Array(size);
    this.childHead = new Int32Array(size);
    this.childTail = new Int32Array(size);
    this.sibling = new Int32Array(size);
    this.storageOf = new Int32Array(size);
    this.losses = new VectorPool(() => new Float64Array(n));
    this.extras = new VectorPool(() => ({
      ded: new Float64Array(n),
      over: new Float64Array(n),
      under: new Float64Array(n),
    }));
    this.queue = new Int32Array(64);
    this.next = new Int32Array(64);
    this.out = new Float64Array(n);
    this.scratch = { ded: new Float64Array(n), over: new Float64Array(n), under: new Float64Array(n) };
    this.sum = new Float64Array(n);
  }

  /**
   * The flat total of a structure, or undefined when some node has a cross-layer profile, more than one
   * parent, or no parent below the top level (items that skip levels): those run through the general engine.
   */
  static of(structure: FmStructure, vectors: number): FlatTotal | undefined {
    const { startLevel, maxLevel, nodes } = structure;
    for (let level = startLevel; level <= maxLevel; level++) {
      for (const node of nodes[level]) {
        if (!node) continue;
        if (node.crossLayer || node.profileLen > node.layerLen) return undefined;
        if (level < maxLevel && node.parents.length === 0) return undefined;
        if (node.parents.length > 1) return undefined;
      }
    }
    return new FlatTotal(structure, vectors);
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
    this.losses.reset();
    this.extras.reset();
    this.queued = 0;
  }

  /** Node `agg`'s loss: the vectors from[at .. at + n) (nodes in the order their losses are added up). */
  inputFrom(agg: number, from: Float64Array, at: number): void {
    const v = this.input(agg);
    for (let s = 0; s < this.n; s++) v[s] = from[at + s];
  }

  /** The vector to fill with node `agg`'s loss (nodes in the order their losses are added up). */
  input(agg: number): Float64Array {
    const level = this.level;
    if (!this.structure.nodes[level][agg])
      throw new CatintelError('invalid_input', `agg_id ${agg} is not a node of level ${level} of the programme`);
    const i = this.offset[level] + agg;
    const L = this.L;
    const slot = this.losses.take();
    // Every layer starts on the one incoming vector, as compute.ts fills a node's layers with it.
    for (let l = 0; l < this.layerLen[i]; l++) this.lossSlot[i * L + l] = slot;
    this.childCount[i] = 0;
    this.push(i);
    return this.losses.get(slot);
  }

  /** The event's loss summed over every top node and layer, per vector (the array is reused by the next event). */
  total(): Float64Array {
    const maxLevel = this.structure.maxLevel;
    for (let level = this.level; level <= maxLevel; level++) {
      // This level's nodes are those pushed so far; the nodes they reach are pushed into the other buffer.
      const queue = this.next;
      const count = this.queued;
      this.next = this.queue;
      this.queue = queue;
      this.queued = 0;
      for (let q = 0; q < count; q++) this.visit(queue[q], level);
      if (level === maxLevel) return this.sumOfTops(queue.subarray(0, count));
    }
    return this.sum.fill(0);
  }

  /** One node of the walk: its vectors made, its profiles applied, and handed to its parent. */
  private visit(node: number, level: number): void {
    const { L, lossSlot, extrasSlot, childCount, childHead, n } = this;
    const kids = childCount[node];
    const layers = this.layerLen[node];
    const profiles = this.profileLen[node];
    const extras = this.hasExtras[node] === 1;
    let storage: number;
    if (kids > 1) {
      storage = node;
      for (let p = 0; p < profiles; p++) {
        const slot = this.losses.take();
        const sum = this.losses.get(slot);
        for (let s = 0; s < n; s++) sum[s] = 0;
        const sumExtras = extras ? this.extras.take() : -1;
        const se = extras ? this.clearedExtras(sumExtras) : undefined;
        for (let c = childHead[node], k = 0; k < kids; k++, c = this.sibling[c]) {
          const cl = this.losses.get(lossSlot[c * L + p]);
          for (let s = 0; s < n; s++) sum[s] += cl[s];
          if (se) addExtras(se, this.extras.get(extrasSlot[c * L + p]), n);
        }
        lossSlot[node * L + p] = slot;
        if (extras) extrasSlot[node * L + p] = sumExtras;
      }
      for (let l = profiles; l < layers; l++) {
        lossSlot[node * L + l] = lossSlot[node * L];
        if (extras) extrasSlot[node * L + l] = extrasSlot[node * L];
      }
    } else if (kids === 1) {
      storage = childHead[node];
      const base = storage * L;
      if (profiles > 1 && lossSlot[base + 1] === lossSlot[base]) {
        for (let p = 1; p < profiles; p++) lossSlot[base + p] = this.copyOfLoss(lossSlot[base]);
        if (extras) for (let p = 1; p < profiles; p++) extrasSlot[base + p] = this.copyOfExtras(extrasSlot[base]);
      }
    } else {
      storage = node;
      const base = node * L;
      if (extras) {
        // The first layer's amounts are shared by the layers without a profile of their own.
        const first = this.extras.take();
        this.clearedExtras(first);
        for (let l = 0; l < layers; l++) extrasSlot[base + l] = first;
      }
      for (let p = 1; p < profiles; p++) {
        lossSlot[base + p] = this.copyOfLoss(lossSlot[base]);
        if (extras) this.clearedExtras((extrasSlot[base + p] = this.extras.take()));
      }
    }

    const { out, scratch } = this;
    for (let p = 0; p < profiles; p++) {
      const st = this.steps[node * L + p];
      if (!st) continue;
      const inp = this.losses.get(lossSlot[storage * L + p]);
      for (let s = 0; s < n; s++) out[s] = 0;
      let x: Extras;
      if (extras) x = this.extras.get(extrasSlot[storage * L + p]);
      else {
        x = scratch;
        const { ded, over, under } = scratch;
        for (let s = 0; s < n; s++) ded[s] = over[s] = under[s] = 0;
      }
      for (const step of st) applyStep(step, out, inp, x, n);
      for (let s = 0; s < n; s++) inp[s] = out[s];
    }

    if (level !== this.structure.maxLevel) {
      const p = this.parent[node];
      if (childCount[p] === 0) {
        childHead[p] = storage;
        this.push(p);
      } else this.sibling[this.childTail[p]] = storage;
      this.childTail[p] = storage;
      childCount[p]++;
    } else this.storageOf[node] = storage;
    childCount[node] = 0;
  }

  /** The top nodes in agg_id order (as compute.ts adds them), each node's layers in layer order. */
  private sumOfTops(tops: Int32Array): Float64Array {
    const { L, n, sum } = this;
    sum.fill(0);
    for (const node of tops.sort()) {
      const storage = this.storageOf[node];
      for (let l = 0; l < this.layerLen[node]; l++) {
        const v = this.losses.get(this.lossSlot[storage * L + l]);
        for (let s = 0; s < n; s++) sum[s] += v[s];
      }
    }
    return sum;
  }

  private copyOfLoss(slot: number): number {
    const copy = this.losses.take();
    this.losses.get(copy).set(this.losses.get(slot));
    return copy;
  }

  private copyOfExtras(slot: number): number {
    const copy = this.extras.take();
    const from = this.extras.get(slot);
    const to = this.extras.get(copy);
    to.ded.set(from.ded);
    to.over.set(from.over);
    to.under.set(from.under);
    return copy;
  }

  private clearedExtras(slot: number): Extras {
    const x = this.extras.get(slot);
    x.ded.fill(0);
    x.over.fill(0);
    x.under.fill(0);
    return x;
  }

  private push(node: number): void {
    if (this.queued === this.next.length) {
      const grown = new Int32Array(this.next.length * 2);
      grown.set(this.next);
      this.next = grown;
    }
    this.next[this.queued++] = node;
  }
}

function addExtras(into: Extras, x: Extras, n: number): void {
  for (let s = 0; s < n; s++) {
    into.ded[s] += x.ded[s];
    into.over[s] += x.over[s];
    into.under[s] += x.under[s];
  }
}
