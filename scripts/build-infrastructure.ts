/**
 * `make data` (infrastructure part): builds data/infrastructure/ from the HIFLD files in ../shared/data
 * (src/intelligence/infrastructure/build.ts; `catintel data build` runs the same builder).
 *   npx tsc -p tsconfig.json && node dist/scripts/build-infrastructure.js [--from ../shared/data] [--out data/infrastructure]
 */
import path from 'node:path';
import { buildInfrastructure } from '../src/intelligence/infrastructure/build.js';

export { buildInfrastructure };

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const out = arg('--out', 'data/infrastructure');
  process.stdout.write(
    JSON.stringify({ infrastructure: buildInfrastructure(arg('--from', '../shared/data'), out), out }) + '\n',
  );
}
