/**
 * The embedded infrastructure (data/infrastructure/) is rebuilt byte for byte from the HIFLD files in
 * ../shared/data by scripts/build-infrastructure.ts (in `make data-check`, and in `make test` when the
 * inputs of the committed data changed). test/intelligence-data.test.ts checks what it reads back to.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInfrastructure } from '../../scripts/build-infrastructure.js';
import { tempDir } from '../helpers/cli.js';
import { REPO_ROOT, sharedData } from '../helpers/paths.js';

const DIR = path.join(REPO_ROOT, 'data/infrastructure');

describe('embedded infrastructure', () => {
  it('rebuilds byte for byte from the shared HIFLD files and stays small', () => {
    const out = tempDir();
    const r = buildInfrastructure(sharedData(), out);
    expect(r.kinds).toEqual({ hospital: 7608, fire_station: 731, school: 4329, urgent_care: 4810, ems: 0 });
    const committed = fs.readdirSync(DIR).sort();
    expect(fs.readdirSync(out).sort()).toEqual(committed);
    let bytes = 0;
    for (const f of committed) {
      const mine = fs.readFileSync(path.join(DIR, f));
      bytes += mine.length;
      expect(fs.readFileSync(path.join(out, f)).equals(mine), `${f} differs from a rebuild: run \`make data\``).toBe(
        true,
      );
    }
    expect(bytes).toBeLessThan(1_000_000);
  });
});
