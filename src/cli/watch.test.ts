import { describe, expect, it } from 'vitest';
import { CatintelError } from '../errors.js';
import { retryDelaySeconds, worthRetrying } from './watch.js';

describe('--watch retries', () => {
  it('backs off from 5 s, doubling, never past the interval', () => {
    expect([1, 2, 3, 4, 5, 6, 60].map((n) => retryDelaySeconds(n, 300))).toEqual([5, 10, 20, 40, 80, 160, 300]);
    expect(retryDelaySeconds(1, 2)).toBe(2);
  });

  it('retries run-time failures and a held store, not bad input', () => {
    expect(worthRetrying(new CatintelError('upstream_failed', 'feed down'))).toBe(true);
    expect(worthRetrying(new CatintelError('store_locked', 'held'))).toBe(true);
    expect(worthRetrying(new Error('unexpected'))).toBe(true);
    expect(worthRetrying(new CatintelError('invalid_input', 'cannot read --from x'))).toBe(false);
  });
});
