/**
 * The typed-array ranking of radius searches (src/live-index/rank.ts, cell-queue.ts) against plain sorting:
 * the k-th smallest, the (distance, id) order and cells taken nearest first, over random columns with many
 * equal values.
 */
import { describe, expect, it } from 'vitest';
import { CellQueue } from '../src/live-index/cell-queue.js';
import { SmallestK, sortByDistance } from '../src/live-index/rank.js';
import { mulberry32 } from '../src/lib/random.js';

describe('ranking rows by distance', () => {
  const random = mulberry32(7);
  const column = (n: number, distinct: number) =>
    Float64Array.from({ length: n }, () => Math.floor(random() * distinct) / 7);

  it('SmallestK holds the k smallest offered: once k are in, its top is the k-th smallest so far', () => {
    for (const n of [1, 2, 3, 17, 100, 1000]) {
      for (const distinct of [1, 3, n]) {
        const values = column(n, distinct);
        for (const k of [1, 2, Math.ceil(n / 2), n]) {
          const heap = new SmallestK(k);
          for (let i = 0; i < n; i++) {
            heap.offer(values[i]);
            expect(heap.full).toBe(i + 1 >= k);
            if (heap.full) expect(heap.top()).toBe([...values.subarray(0, i + 1)].sort((a, b) => a - b)[k - 1]);
          }
        }
      }
    }
  });

  it('sortByDistance orders by distance, then id, for short and long runs', () => {
    for (const m of [0, 1, 2, 16, 17, 40, 500]) {
      for (const distinct of [2, m + 1]) {
        const d = column(m, distinct);
        const at = Uint32Array.from({ length: m }, (_, k) => k);
        const idOf = (i: number) => `id-${(i * 7919) % 1009}`;
        const expected = [...at].sort((p, q) => d[p] - d[q] || (idOf(p) < idOf(q) ? -1 : 1)).map((i) => [d[i], i]);
        const distances = d.slice();
        sortByDistance(distances, at, m, idOf);
        expect([...at].map((i, k) => [distances[k], i])).toEqual(expected);
      }
    }
  });

  it('CellQueue gives its cells back nearest first, and holds the rest when stopped', () => {
    for (const count of [1, 2, 7, 300]) {
      const a = column(count, Math.max(2, count >> 2));
      const q = new CellQueue(count);
      a.forEach((v, c) => q.push(c % 2 ? ~c : c, v));
      const taken: number[] = [];
      while (q.size > count >> 1) {
        const lowest = q.lowest();
        const c = q.pop();
        taken.push(c);
        expect(a[c < 0 ? ~c : c]).toBe(lowest);
      }
      const firsts = taken.map((c) => a[c < 0 ? ~c : c]);
      expect(firsts).toEqual([...firsts].sort((p, r) => p - r));
      const rest = [...q.cells.subarray(0, q.size)].map((c) => (c < 0 ? ~c : c));
      expect(new Set([...taken.map((c) => (c < 0 ? ~c : c)), ...rest]).size).toBe(count);
      expect(Math.min(...rest.map((c) => a[c]), Infinity)).toBeGreaterThanOrEqual(Math.max(...firsts, -Infinity));
    }
  });
});
