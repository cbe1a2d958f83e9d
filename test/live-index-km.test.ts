/**
 * distance_km as the live index writes it (src/live-index/render.ts kmLength, writeKm) against the text
 * JSON.stringify gives Math.round(d * 100) / 100 on the SQL path, for every distance on Earth.
 */
import { describe, expect, it } from 'vitest';
import { kmLength, writeKm } from '../src/live-index/render.js';
import { mulberry32 } from '../src/lib/random.js';

const bytes = new Uint8Array(32);

/** The text written for c, marked when its length is not kmLength(c). */
function written(c: number): string {
  const end = writeKm(bytes, 3, c);
  const text = Buffer.from(bytes.subarray(3, end)).toString('latin1');
  return end - 3 === kmLength(c) ? text : `${text} (kmLength ${kmLength(c)})`;
}

describe('distance_km text', () => {
  it('is JSON.stringify of the rounded distance, at the rounding edges and at random up to half the Earth', () => {
    const edges = [
      0, 0.004, 0.005, 0.0049999, 0.01, 0.05, 0.1, 0.105, 0.995, 1, 9.995, 10, 10.5, 99.99, 99.995, 100, 1000.01,
      12345.67, 20015.09, 20015.1,
    ];
    const random = mulberry32(11);
    const distances = [...edges, ...Array.from({ length: 200_000 }, (_, k) => random() * (k % 2 ? 20_016 : 50))];
    // Collected, then compared once: an expect() per distance made this test take seconds.
    const wrong = distances
      .map((d) => ({ d, ours: written(Math.round(d * 100)), json: JSON.stringify(Math.round(d * 100) / 100) }))
      .filter((x) => x.ours !== x.json);
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
