import { describe, expect, it } from 'vitest';
import { MemoByContent } from './memo-by-content.js';

describe('MemoByContent', () => {
  it('computes once per content (equal inputs share a result), keeps the last `capacity` used, and freezes what it shares', () => {
    let calls = 0;
    const area = new MemoByContent((ring: number[][]) => {
      calls++;
      return { vertices: ring.length, first: { x: ring[0][0] } };
    }, 2);
    const a = area.get([
      [1, 2],
      [3, 4],
    ]);
    expect(
      area.get([
        [1, 2],
        [3, 4],
      ]),
    ).toBe(a); // a new array of the same content
    expect(calls).toBe(1);
    area.get([[5, 6]]);
    area.get([
      [1, 2],
      [3, 4],
    ]); // used again: now the most recent
    area.get([[7, 8]]); // drops [[5, 6]], the least recently used
    expect(calls).toBe(3);
    area.get([
      [1, 2],
      [3, 4],
    ]);
    expect(calls).toBe(3);
    area.get([[5, 6]]);
    expect(calls).toBe(4);
    expect(Object.isFrozen(a) && Object.isFrozen(a.first)).toBe(true);
    expect(() => {
      (a.first as { x: number }).x = 9;
    }).toThrow();
  });
});
