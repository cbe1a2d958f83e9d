/**
 * data/baseline is rebuilt from the shared catalogs byte for byte. A minute of work: it runs in
 * `make data-check`, and in `make test` only when the inputs of the committed data changed (data/inputs.sha256).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBaseline } from '../../src/databuild/build.js';
import { GRID_FILE, MANIFEST_FILE } from '../../src/reference-data/load-baseline.js';
import { REPO_ROOT, SHARED_DATA } from '../helpers/paths.js';

const committed = path.join(REPO_ROOT, 'data', 'baseline');

describe.skipIf(!fs.existsSync(SHARED_DATA))('catintel data build', () => {
  it('rebuilds data/baseline from the shared catalogs byte for byte', async () => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-baseline-'));
    try {
      const r = await buildBaseline({ fromDir: SHARED_DATA, outDir: out });
      expect(r.cells).toBeGreaterThan(15_000);
      for (const f of [GRID_FILE, MANIFEST_FILE]) {
        const built = fs.readFileSync(path.join(out, f));
        const ours = fs.readFileSync(path.join(committed, f));
        // On failure: the build or an input changed; rebuild with `node dist/scripts/build-baseline.js`.
        expect(built.equals(ours), `${f} differs from the committed data/baseline/${f}`).toBe(true);
      }
    } finally {
      fs.rmSync(out, { recursive: true, force: true });
    }
  }, 240_000);
});
