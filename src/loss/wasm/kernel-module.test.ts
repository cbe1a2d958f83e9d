import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED, wasmModuleSource } from '../../../scripts/build-wasm.js';
import { kernelInstance } from './kernel-module.js';
import { fromNorm, toNorm } from '../domain/normal.js';
import { philoxLatinHypercube } from '../domain/philox.js';

/** A seeded stream of doubles in [0, 1). */
function uniforms(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 69069 + 1) % 2 ** 32;
    return state / 2 ** 32;
  };
}

describe("the loss kernel's WebAssembly module (src/loss/assembly)", () => {
  it('kernel-wasm.ts is the sources compiled (npm run build:wasm after editing them)', async () => {
    expect(fs.readFileSync(GENERATED, 'utf8')).toBe(await wasmModuleSource());
  });

  it('draws what the JavaScript Latin hypercube draws, for 1 and several samples, seeds of either sign', () => {
    const rand = uniforms(1269801216);
    for (const S of [1, 2, 5, 10, 37]) {
      const wasm = kernelInstance();
      // The sampler's strata (its 34th array) at byte 0, the draws after them.
      wasm.memory.grow(1);
      wasm.setupPositions(0, S, 0);
      wasm.setupSampler(...new Array(37).fill(0));
      const out = new Float64Array(wasm.memory.buffer, 8 * S, S);
      const expected = new Float64Array(S);
      for (let k = 0; k < 300; k++) {
        const magnitude = Math.floor(rand() * 2 ** 31);
        // Every third seed negative, as a negative group id gives (a key whose high word is all ones).
        const seed = k % 3 === 2 ? -magnitude : magnitude;
        wasm.drawSeed(seed, 8 * S);
        philoxLatinHypercube(seed, S, expected);
        expect([...out], `seed ${seed}, ${S} samples`).toEqual([...expected]);
      }
    }
  });

  it("looks gulmc's normal tables up as the JavaScript reference does, tails and clamped ends included", () => {
    const wasm = kernelInstance();
    wasm.memory.grow(Math.ceil((1_000_000 * 8) / 65536));
    new Float64Array(wasm.memory.buffer, 0, 1_000_000).fill(NaN);
    // gulmc's cdf table (the sampler's 18th array) at byte 0, its entries computed when first read.
    wasm.setupSampler(...new Array(37).fill(0));
    const rand = uniforms(7);
    const us = [1e-17, 1e-16, 1e-9, 0.0249999, 0.025, 0.5, 0.975, 0.9750001, 1 - 1e-12, 1];
    for (let k = 0; k < 5000; k++) us.push(rand());
    for (const u of us) expect(wasm.toNormOf(u), `ppf ${u}`).toBe(toNorm(u));
    const zs = [-25, -20, -19.99999, -8, 0, 1e-9, 3.3, 19.99999, 20, 25];
    for (let k = 0; k < 5000; k++) zs.push((rand() - 0.5) * 16);
    for (const z of zs) expect(wasm.fromNormOf(z), `cdf ${z}`).toBe(fromNorm(z));
  });
});
