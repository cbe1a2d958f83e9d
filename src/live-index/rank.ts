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
 * (called only for equal distances). Insertion sort for short runs, quicksort above.
 */
export function sortByDistance(d: Float64Array, at: Uint32Array, m: number, idOf: (position: number) => string): void {
  const before = (p: number, q: number): boolean => d[p] < d[q] || (d[p] === d[q] && idOf(at[p]) < idOf(at[q]));
  const swap = (p: number, q: number): void => {
    const td = d[p];
    d[p] = d[q];
    d[q] = td;
    const ta = at[p];
    at[p] = at[q];
    at[q] = ta;
  };
  const sort = (lo: number, hi: number): void => {
    while (hi - lo > 16) {
      // Median of three moved to lo; Lomuto partition on (distance, id), which are distinct per row.
      const mid = (lo + hi) >>> 1;
      if (before(mid, lo)) swap(mid, lo);
      if (before(hi, lo)) swap(hi, lo);
      if (before(hi, mid)) swap(hi, mid);
      swap(lo, mid);
      let store = lo;
      for (let k = lo + 1; k <= hi; k++) if (before(k, lo)) swap(++store, k);
      swap(lo, store);
      // Recurse into the smaller side, loop on the larger: the stack stays logarithmic.
      if (store - lo < hi - store) {
        sort(lo, store - 1);
        lo = store + 1;
      } else {
        sort(store + 1, hi);
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
  };
  sort(0, m - 1);
}
