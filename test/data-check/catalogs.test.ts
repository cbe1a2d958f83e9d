/**
 * The backtest's embedded catalogs: data/catalogs/ is rebuilt byte for byte from ../shared/data by the
 * project's own script (in `make data-check`, and in `make test` when the inputs of the committed data
 * changed). test/catalogs.test.ts checks what they read back to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalogs } from '../../scripts/build-catalogs.js';
import { tempDir } from '../helpers/cli.js';
import { REPO_ROOT, sharedData } from '../helpers/paths.js';

const CATALOGS = path.join(REPO_ROOT, 'data/catalogs');

describe('embedded backtest catalogs', () => {
  it('rebuild byte for byte from the shared real data and stay small', () => {
    const out = tempDir();
    const counts = buildCatalogs(sharedData(), out);
    expect(counts.storms).toBeGreaterThan(3000);
    expect(counts.quakes).toBeGreaterThan(40000);
    const committed = fs.readdirSync(CATALOGS).sort();
    expect(fs.readdirSync(out).sort()).toEqual(committed);
    let bytes = 0;
    for (const f of committed) {
      const mine = fs.readFileSync(path.join(CATALOGS, f));
      bytes += mine.length;
      expect(fs.readFileSync(path.join(out, f)).equals(mine), `${f} differs from a rebuild: run \`make data\``).toBe(
        true,
      );
    }
    expect(bytes).toBeLessThan(3_000_000);
  });
});
