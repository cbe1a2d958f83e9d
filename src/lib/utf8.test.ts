import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { completeUtf8Prefix, invalidUtf8At } from './utf8.js';

const decodes = (bytes: Uint8Array) => {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe('invalidUtf8At', () => {
  it('refuses what TextDecoder fatal mode refuses, and everything before the byte it names decodes', () => {
    const bytes = fc.oneof(
      fc.uint8Array({ maxLength: 24 }),
      fc
        .tuple(fc.string({ unit: 'binary', maxLength: 12 }), fc.nat(40), fc.integer({ min: 0x80, max: 0xff }))
        .map(([s, at, b]) => {
          const u = Buffer.from(s, 'utf8');
          if (u.length) u[at % u.length] = b;
          return new Uint8Array(u);
        }),
    );
    fc.assert(
      fc.property(bytes, (b) => {
        const at = invalidUtf8At(b);
        expect(at < 0).toBe(decodes(b));
        if (at >= 0) expect(decodes(b.subarray(0, at))).toBe(true);
      }),
      { numRuns: 1000, seed: 27 },
    );
  });

  it('names the first bad byte', () => {
    expect(invalidUtf8At(Buffer.from('plain ascii'))).toBe(-1);
    expect(invalidUtf8At(Buffer.from('Café 💥'))).toBe(-1);
    expect(invalidUtf8At(Buffer.from([0x61, 0xc3, 0x28]))).toBe(1); // a bad continuation
    expect(invalidUtf8At(Buffer.from([0x61, 0x62, 0xed, 0xa0, 0x80]))).toBe(2); // a surrogate
    expect(invalidUtf8At(Buffer.from([0xc0, 0xaf]))).toBe(0); // overlong
    expect(invalidUtf8At(Buffer.from([0x61, 0xe2, 0x82]))).toBe(1); // cut short at the end
  });

  it('completeUtf8Prefix leaves out only a sequence the next read completes', () => {
    const euro = Buffer.from('a€'); // 61 e2 82 ac
    expect(completeUtf8Prefix(euro, 4)).toBe(4);
    expect(completeUtf8Prefix(euro, 3)).toBe(1);
    expect(completeUtf8Prefix(euro, 2)).toBe(1);
    expect(completeUtf8Prefix(euro, 1)).toBe(1);
  });
});
