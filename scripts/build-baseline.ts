/**
 * Build the hazard baseline from the shared public catalogs:
 *   node dist/scripts/build-baseline.js --from ../shared/data --out data/baseline
 * Defaults: --from ../shared/data (beside the project), --out data/baseline. Progress goes to stderr.
 */
import path from 'node:path';
import { buildBaseline } from '../src/databuild/build.js';
import { packageRoot } from '../src/lib/package-root.js';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

const root = packageRoot();
const fromDir = path.resolve(arg('from', path.join(root, '..', 'shared', 'data')));
const outDir = path.resolve(arg('out', path.join(root, 'data', 'baseline')));
const t0 = performance.now();
buildBaseline({
  fromDir,
  outDir,
  log: (m) => process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(1)}s] ${m}\n`),
}).then(
  (r) => {
    process.stderr.write(
      `wrote ${r.gridPath} (${r.gridBytes} bytes, ${r.cells} cells, ${r.channels} channels) and ${r.manifestPath} in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
    );
  },
  (err) => {
    process.stderr.write(`build-baseline: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
