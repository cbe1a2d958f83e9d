/**
 * The embedded default: data/seed/ is rebuilt byte for byte from ../shared/data by the project's own
 * script (in `make data-check`, and in `make test` when the inputs of the committed data changed).
 * test/seed.test.ts checks that `catintel db seed` loads it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../scripts/build-seed.js';
import { tempDir } from '../helpers/cli.js';
import { REPO_ROOT, SHARED_DATA } from '../helpers/paths.js';

const SEED = path.join(REPO_ROOT, 'data/seed');

describe('embedded seed', () => {
  it('rebuilds byte for byte from the shared real data', async () => {
    const out = tempDir();
    await buildSeed(SHARED_DATA, out);
    const committed = fs.readdirSync(SEED).sort();
    expect(fs.readdirSync(out).sort()).toEqual(committed);
    for (const f of committed)
      expect(fs.readFileSync(path.join(out, f)).equals(fs.readFileSync(path.join(SEED, f))), f).toBe(true);
  });
});
