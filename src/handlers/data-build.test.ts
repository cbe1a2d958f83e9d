/**
 * `catintel data build`: the full build is covered by src/databuild/build.test.ts (byte-identical to the
 * committed baseline); here, the command's own behaviour, without rewriting data/baseline under the
 * other tests' feet.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, tempDir } from '../../test/helpers/cli.js';
import { REPO_ROOT } from '../../test/helpers/paths.js';

describe('catintel data build', () => {
  it('is listed with its option and examples', async () => {
    const r = await cli(['data', 'build', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('--from <dir>');
    expect(r.stdout).toContain('catintel data build');
  });

  it('refuses a --from that is not a directory (exit 2) and leaves the committed baseline alone', async () => {
    const grid = path.join(REPO_ROOT, 'data/baseline/hazard-grid.bin');
    const before = fs.statSync(grid).mtimeMs;
    const r = await cli(['data', 'build', '--from', path.join(tempDir(), 'nowhere')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^catintel: --from .*nowhere is not a directory; .* \[invalid_input\]\n$/);
    expect(fs.statSync(grid).mtimeMs).toBe(before);
  });

  it('names the missing input file when --from lacks the catalogs (exit 2), and leaves no temporary directory', async () => {
    const from = tempDir();
    const r = await cli(['data', 'build', '--from', from]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not found under .* \[invalid_input\]/);
    expect(fs.readdirSync(path.join(REPO_ROOT, 'data')).filter((f) => f.startsWith('.baseline-build'))).toEqual([]);
  });
});
