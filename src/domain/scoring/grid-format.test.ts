import { describe, expect, it } from 'vitest';
import { LOG_CODEC, NULL_CODE, decodeValue, encodeValue } from './grid-format.js';

describe('16-bit channel codecs', () => {
  it('round-trips frequencies to within 0.04 %', () => {
    for (const v of [1e-8, 3.3e-5, 0.0123, 0.5, 2.7]) {
      const back = decodeValue(encodeValue(v, LOG_CODEC), LOG_CODEC);
      expect(Math.abs(back / v - 1)).toBeLessThan(4e-4);
    }
  });

  it('keeps zero and null apart', () => {
    expect(encodeValue(0, LOG_CODEC)).toBe(0);
    expect(decodeValue(0, LOG_CODEC)).toBe(0);
    expect(encodeValue(null, LOG_CODEC)).toBe(NULL_CODE);
    expect(encodeValue(Number.NaN, LOG_CODEC)).toBe(NULL_CODE);
    expect(decodeValue(NULL_CODE, LOG_CODEC)).toBeNaN();
  });

  it('quantises linear channels by their scale', () => {
    const c = { kind: 'linear', scale: 10 } as const;
    expect(decodeValue(encodeValue(106.54, c), c)).toBe(106.5);
  });
});
