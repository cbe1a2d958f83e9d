/**
 * Ranking a radius search's rows by distance over typed arrays, with every comparison written inline. The
 * generic tools this replaces (quickselect's compare callback, Array.prototype.sort over {i, d} objects)
 * spent most of a search's time in calls and allocations: together a third of a nearby request's selection.
 */

/**
 * The k smallest of the values offered so far, in a binary max-heap over a scratch column (searches are
 * synchronous: one serves every search). Once k are in, top() is the k-th smallest offered: a radius search
 * keeps no row beyond it, and its bound tightens with every row kept (a selection over the rows kept, redone
 * as they doubled, was about a fifth of a search's CPU in a profile of the server).
 */
export class SmallestK {
  private size = 0;
  private readonly heap: Float64Array;

  constructor(private readonly k: number) {
    this.heap = heapScratch.length >= k ? heapScratch : (heapScratch = new Float64Array(2 * k));
  }

  /** k values are in: top() is the k-th smallest offered. */
  get full(): boolean {
    return this.size === this.k;
  }

  /** The largest value held. */
  top(): number {
    return this.heap[0];
  }

  offer(v: number): void {
    const h = this.heap;
    if (this.size < this.k) {
      let at = this.size++;
      while (at > 0) {
        const parent = (at - 1) >> 1;
        if (h[parent] >= v) break;
        h[at] = h[parent];
        at = parent;
      }
      h[at] = v;
      return;
    }
    if (v >= h[0]) return;
    // v replaces the largest, sifted down.
    const size = this.size;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && h[child + 1] > h[child]) child++;
      if (h[child] <= v) break;
      h[at] = h[child];
      at = child;
    }
    h[at] = v;
  }
}

let heapScratch = new Float64Array(0);

/**
 * Sorts rows [0, m) of the parallel columns `d` (distance) and `at` (the row's index) by distance, then by `idOf`
 * (called only for equal distances). Insertion sort for short runs, quicksort above. Module functions with
 * their columns as arguments: closures made per call (a comparator, a swap, the recursion) cost more than
 * the sort of a page's few dozen rows.
 */
export function sortByDistance(d: Float64Array, at: Uint32Array, m: number, idOf: (row: number) => string): void {
  quicksort(d, at, 0, m - 1, idOf);
}

/** Row p orders before row q: by distance, then id (distinct per row). */
function before(d: Float64Array, at: Uint32Array, p: number, q: number, idOf: (row: number) => string): boolean {
  return d[p] < d[q] || (d[p] === d[q] && idOf(at[p]) < idOf(at[q]));
}

function swap(d: Float64Array, at: Uint32Array, p: number, q: number): void {
  const td = d[p];
  d[p] = d[q];
  d[q] = td;
  const ta = at[p];
  at[p] = at[q];
  at[q] = ta;
}

function quicksort(d: Float64Array, at: Uint32Array, lo: number, hi: number, idOf: (row: number) => string): void {
  while (hi - lo > 16) {
    // Median of three moved to lo; Lomuto partition on (distance, id), which are distinct per row.
    const mid = (lo + hi) >>> 1;
    if (before(d, at, mid, lo, idOf)) swap(d, at, mid, lo);
    if (before(d, at, hi, lo, idOf)) swap(d, at, hi, lo);
    if (before(d, at, hi, mid, idOf)) swap(d, at, hi, mid);
    swap(d, at, lo, mid);
    let store = lo;
    for (let k = lo + 1; k <= hi; k++) if (before(d, at, k, lo, idOf)) swap(d, at, ++store, k);
    swap(d, at, lo, store);
    // Recurse into the smaller side, loop on the larger: the stack stays logarithmic.
    if (store - lo < hi - store) {
      quicksort(d, at, lo, store - 1, idOf);
      lo = store + 1;
    } else {
      quicksort(d, at, store + 1, hi, idOf);
      hi = store - 1;
    }
  }
  for (let k = lo + 1; k <= hi; k++) {
    const kd = d[k];
    const ka = at[k];
    let j = k - 1;
    while (j >= lo && (d[j] > kd || (d[j] === kd && idOf(at[j]) > idOf(ka)))) {
      d[j + 1] = d[j];
      at[j + 1] = at[j];
      j--;
    }
    d[j + 1] = kd;
    at[j + 1] = ka;
  }
}
