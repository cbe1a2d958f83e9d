/**
 * The calibration constants of damage-ratio.ts are measured, not chosen: recompute each k from the
 * committed hazard grid and the NRI state table in ../shared/data, as docs/scoring.md §1.4 describes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nriNumber, parseNriStates } from '../../reference-data/nri.js';
import { REPO_ROOT, sharedData } from '../../../test/helpers/paths.js';
import { CALIBRATION_MIN_RATE, NRI_CALIBRATION } from './damage-ratio.js';
import { parseHazardGrid } from './grid.js';

const grid = parseHazardGrid(new Uint8Array(fs.readFileSync(path.join(REPO_ROOT, 'data/baseline/hazard-grid.bin'))));
const nri = parseNriStates(fs.readFileSync(sharedData('hazard_history/fema_nri/NRI_Table_States.csv'), 'utf8'));

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** Median over states of (mean catalog λ_damaging over the state's catalog cells) / (NRI EALB / BUILDVALUE). */
function measureK(peril: keyof typeof NRI_CALIBRATION): { k: number; states: number } {
  const lam = grid.channels.get(`${peril}.lambda_damaging`)!;
  const origin = grid.channels.get(`${peril}.origin`); // 1 = NRI fallback cells: not catalog, left out
  const sums = new Map<string, [number, number]>();
  for (let c = 0; c < grid.nCells; c++) {
    if ((origin && origin[c] !== 0) || !Number.isFinite(lam[c])) continue;
    const state = grid.header.counties.fips[grid.county[c]].slice(0, 2);
    const acc = sums.get(state) ?? [0, 0];
    acc[0] += lam[c];
    acc[1] += 1;
    sums.set(state, acc);
  }
  const prefix = NRI_CALIBRATION[peril].nri;
  const ratios: number[] = [];
  for (const [state, [sum, n]] of sums) {
    const rate = nriNumber(nri.get(state), `${prefix}_EALB`) / nriNumber(nri.get(state), 'BUILDVALUE');
    if (rate >= CALIBRATION_MIN_RATE && sum > 0) ratios.push(sum / n / rate);
  }
  return { k: median(ratios), states: ratios.length };
}

describe('expected annual damage ratio calibration', () => {
  for (const peril of Object.keys(NRI_CALIBRATION) as (keyof typeof NRI_CALIBRATION)[]) {
    it(`${peril}: k = ${NRI_CALIBRATION[peril].k} is the measured median ratio`, () => {
      const { k, states } = measureK(peril);
      expect(states).toBeGreaterThanOrEqual(10);
      expect(Math.abs(k / NRI_CALIBRATION[peril].k - 1), `measured k = ${k}`).toBeLessThan(0.001);
    });
  }
});
