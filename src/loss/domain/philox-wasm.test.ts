import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedPath, wasmModuleSource } from '../../../scripts/build-wasm.js';
import { firstDrawKeys, philoxLatinHypercube, runFirstDraws } from './philox.js';

const WAT = new URL('./philox.wat', import.meta.url).pathname;

describe('Philox in WebAssembly (philox.wat)', () => {
  it('philox-wasm.ts is philox.wat compiled (npm run build:wasm after editing the .wat)', async () => {
    expect(fs.readFileSync(generatedPath(WAT), 'utf8')).toBe(await wasmModuleSource(WAT));
  });

  it('draws what the JavaScript generator draws, for seeds below and above 2^32 and negative ones, in batches of any size', () => {
    const one = new Float64Array(1);
    let state = 1269801216;
    for (const n of [1, 7, 1000, 5000]) {
      const seeds: number[] = [];
      const keys = firstDrawKeys(n);
      for (let k = 0; k < n; k++) {
        state = (state * 69069 + 1) % 2 ** 40;
        // Every third seed negative, as a negative group id gives (a high word of all ones).
        const seed = k % 3 === 2 ? -(state % 2 ** 31) : state;
        seeds.push(seed);
        keys[2 * k] = seed % 2 ** 32;
        keys[2 * k + 1] = Math.floor(seed / 2 ** 32);
      }
      const drawn = runFirstDraws(n);
      for (let k = 0; k < n; k++) {
        philoxLatinHypercube(seeds[k], 1, one);
        expect(drawn[k]).toBe(one[0]);
      }
    }
  });
});
