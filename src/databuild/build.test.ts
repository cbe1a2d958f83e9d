/** The committed baseline grid stays compact and records only its inputs; its byte-for-byte rebuild is in test/data-check/baseline.test.ts. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, SHARED_DATA } from '../../test/helpers/paths.js';
import { buildBaseline } from './build.js';
import { GRID_FILE, MANIFEST_FILE } from '../reference-data/load-baseline.js';

const committed = path.join(REPO_ROOT, 'data', 'baseline');

describe.skipIf(!fs.existsSync(SHARED_DATA))('catintel data build', () => {
  it('stays a compact file', () => {
    expect(fs.statSync(path.join(committed, GRID_FILE)).size).toBeLessThan(4 * 1024 * 1024);
  });

  it('records no wall-clock time, only the inputs it was built from', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(committed, MANIFEST_FILE), 'utf8'));
    expect(manifest.ingested_at).toBe('2025-12-01T00:00:00Z');
    expect(manifest.inputs.map((i: { path: string }) => i.path)).toContain(
      'hazard_history/hurricanes/hurdat2-1851-2024-040425_reassembled.txt',
    );
    for (const i of manifest.inputs) expect(i.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('fails with a message naming the missing input and the fix', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-empty-'));
    try {
      await expect(buildBaseline({ fromDir: empty, outDir: path.join(empty, 'out') })).rejects.toThrow(
        /not found under .*--from/,
      );
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
