/**
 * Ranking a radius search's rows by distance over typed arrays, with every comparison written inline. The
 * generic tools this replaces (quickselect's compare callback, Array.prototype.sort over {i, d} objects)
 * spent most of a search's time in calls and allocations: together a third of a nearby request's selection.
 */

/**
 * The k-th smallest (1-based) of values[0, n), found by quickselect on a scratch copy (values keep their
 * order). Hoare partitions around the median of three; linear on average.
 */
export function nthSmallest(values: Float64Array, n: number, k: number): number {
  const v = (scratch = scratch.length >= n ? scratch : new Float64Array(n * 2));
  v.set(values.subarray(0, n));
  let lo = 0;
  let hi = n - 1;
  const target = k - 1;
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // The median of v[lo], v[mid], v[hi] as pivot: sorted data (cells read nearest first) stays linear.
    const a = v[lo];
    const b = v[mid];
    const c = v[hi];
    const pivot = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (v[i] < pivot) i++;
      while (v[j] > pivot) j--;
      if (i <= j) {
        const t = v[i];
        v[i++] = v[j];
        v[j--] = t;
      }
    }
    // v[lo, j] <= pivot <= v[i, hi], and anything strictly between j and i equals the pivot.
    if (target <= j) hi = j;
    else if (target >= i) lo = i;
    else return pivot;
  }
  return v[target];
}

let scratch = new Float64Array(0);

/**
 * Sorts rows [0, m) of the parallel columns `d` (distance) and `at` (position) by distance, then by `idOf`
 * (called only for equal distances). Insertion sort for short runs, quicksort above. Module functions with
 * their columns as arguments: closures made per call (a comparator, a swap, the recursion) cost more than
 * the sort of a page's few dozen rows.
 */
export function sortByDistance(d: Float64Array, at: Uint32Array, m: number, idOf: (position: number) => string): void {
  quicksort(d, at, 0, m - 1, idOf);
}

/** Row p orders before row q: by distance, then id (distinct per row). */
function before(d: Float64Array, at: Uint32Array, p: number, q: number, idOf: (position: number) => string): boolean {
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

function quicksort(d: Float64Array, at: Uint32Array, lo: number, hi: number, idOf: (position: number) => string): void {
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
