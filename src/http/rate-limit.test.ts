import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from './rate-limit.js';

describe('sliding window reset', () => {
  it('never reports a reset longer than the window, whatever the fractional clock', () => {
    // 56748.014034739834 + 60000 - 56748.014034739834 is 60000.000000000007 in floating point.
    const t = 56748.014034739834;
    const limiter = new SlidingWindowLimiter(60_000, () => t);
    expect(limiter.hit('client', 60).resetSeconds).toBe(60);
  });
});
