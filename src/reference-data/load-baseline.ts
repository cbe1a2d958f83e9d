/**
 * The file-system side of the hazard baseline: read data/baseline/hazard-grid.bin once and parse it
 * (src/domain/scoring/grid.ts). Handlers call loadBaselineGrid(); tests may pass another directory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseHazardGrid, type HazardGrid } from '../domain/scoring/grid.js';
import { packageRoot } from '../lib/package-root.js';

/** File names inside data/baseline/. */
export const GRID_FILE = 'hazard-grid.bin';
export const MANIFEST_FILE = 'manifest.json';

const cache = new Map<string, HazardGrid>();

export function defaultBaselineDir(): string {
  return path.join(packageRoot(), 'data', 'baseline');
}

export function loadBaselineGrid(dir: string = defaultBaselineDir()): HazardGrid {
  const file = path.resolve(dir, GRID_FILE);
  const hit = cache.get(file);
  if (hit) return hit;
  if (!fs.existsSync(file)) throw new Error(`hazard baseline ${file} is missing; run catintel data build`);
  const grid = parseHazardGrid(new Uint8Array(fs.readFileSync(file)));
  cache.set(file, grid);
  return grid;
}
