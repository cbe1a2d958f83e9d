/**
 * Load the model damage table (src/domain/scoring/model-damage.ts) from data/model-damage/: the reference
 * building's expected annual damage ratio per cell of each model package (hurricane wind, earthquake),
 * gzip-compressed, with a manifest naming the packages. `make run` and the scores read the committed table
 * and need no package; src/databuild/model-damage.ts builds it (`node dist/scripts/build-model-damage.js`).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { parseModelDamage, type ModelDamageTable } from '../domain/scoring/model-damage.js';
import { packageRoot } from '../lib/package-root.js';

export const MODEL_DAMAGE_FILE = 'damage-ratios.bin.gz';
export const MODEL_DAMAGE_MANIFEST = 'manifest.json';

export function defaultModelDamageDir(): string {
  return path.join(packageRoot(), 'data', 'model-damage');
}

const cache = new Map<string, ModelDamageTable | null>();

/** The table in `dir` (read once), or null when the folder holds none (the scores then say the model's ratio is not available). */
export function loadModelDamage(dir: string = defaultModelDamageDir()): ModelDamageTable | null {
  const file = path.resolve(dir, MODEL_DAMAGE_FILE);
  const hit = cache.get(file);
  if (hit !== undefined) return hit;
  const table = fs.existsSync(file) ? parseModelDamage(new Uint8Array(zlib.gunzipSync(fs.readFileSync(file)))) : null;
  cache.set(file, table);
  return table;
}
