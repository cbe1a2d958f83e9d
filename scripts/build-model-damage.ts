/**
 * Rebuild the model damage table the scores read (data/model-damage/) from built model packages:
 *   node dist/scripts/build-model-damage.js --models models --out data/model-damage
 * The packages first: `catintel model build hurricane --out models/hurricane` and
 * `catintel model build earthquake --out models/earthquake` (1,000 years, seed 1, their defaults).
 * Defaults: --models models (under the project), --out data/model-damage. `--perils earthquake` (or
 * hurricane_wind) rebuilds that peril only and keeps the other's grid from the table in --out.
 * Progress goes to stderr.
 */
import path from 'node:path';
import { buildModelDamage } from '../src/databuild/model-damage.js';
import { packageRoot } from '../src/lib/package-root.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const root = packageRoot();
const modelsDir = path.resolve(arg('models', path.join(root, 'models')));
const outDir = path.resolve(arg('out', path.join(root, 'data', 'model-damage')));
const t0 = performance.now();
const log = (m: string) => process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}\n`);
const perilsArg = arg('perils', '');
const perils = perilsArg ? (perilsArg.split(',') as ('hurricane_wind' | 'earthquake')[]) : undefined;
for (const p of perils ?? [])
  if (p !== 'hurricane_wind' && p !== 'earthquake')
    throw new Error(`--perils ${p}: the model damage table holds hurricane_wind and earthquake`);
buildModelDamage({ modelsDir, outDir, perils, log }).then(
  (r) =>
    log(
      `wrote ${path.relative(root, r.file) || r.file} (${r.bytes} bytes; ${r.grids.map((g) => `${g.peril}: ${g.package.model} ${g.package.years} years, seed ${g.package.seed}`).join('; ')})`,
    ),
  (err) => {
    process.stderr.write(`build-model-damage: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
