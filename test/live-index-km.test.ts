/**
 * distance_km as the live index writes it (src/live-index/render.ts kmLength, writeKm) against the text
 * JSON.stringify gives Math.round(d * 100) / 100 on the SQL path, for every distance on Earth.
 */
import { describe, expect, it } from 'vitest';
import { kmLength, writeKm } from '../src/live-index/render.js';
import { mulberry32 } from '../src/lib/random.js';

function written(c: number): string {
  const bytes = new Uint8Array(32);
  const end = writeKm(bytes, 3, c);
  expect(end - 3).toBe(kmLength(c));
  return Buffer.from(bytes.subarray(3, end)).toString('latin1');
}

describe('distance_km text', () => {
  it('is JSON.stringify of the rounded distance, at the rounding edges and at random up to half the Earth', () => {
    const edges = [0, 0.004, 0.005, 0.0049999, 0.01, 0.05, 0.1, 0.105, 0.995, 1, 9.995, 10, 10.5, 99.99, 99.995, 100, 1000.01, 12345.67, 20015.09, 20015.1];
    const random = mulberry32(11);
    const distances = [...edges, ...Array.from({ length: 200_000 }, (_, k) => random() * (k % 2 ? 20_016 : 50))];
    for (const d of distances) {
      const c = Math.round(d * 100);
      expect(written(c), `distance ${d}`).toBe(JSON.stringify(Math.round(d * 100) / 100));
    }
  });
});
