import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeStaleTemps } from './manifest.js';
import { writeProbePath } from './out-dir.js';

/** A pid no process has: past the kernel's largest (pid_max is at most 2^22). */
const GONE = 4_194_305;

describe('removeStaleTemps', () => {
  it("removes a dead run's temporaries, DuckDB's tmp_ copies and the write probe included, and nothing else", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-stale-'));
    // The last: the output directory's write probe, left by a run killed between creating and removing it.
    const stale = [
      `.location.csv.${GONE}-9f2a.tmp`,
      `tmp_.keys-ranks.csv.${GONE}-92a331aa.tmp`,
      `.duckdb-spill.${GONE}-ab.tmp`,
      path.basename(writeProbePath(dir, GONE)),
    ];
    const kept = [`.location.csv.${process.pid}-9f2a.tmp`, 'location.csv', 'tmp_notes.txt', 'manifest.json'];
    for (const f of [...stale, ...kept]) fs.writeFileSync(path.join(dir, f), 'x');
    expect((await removeStaleTemps(dir)).sort()).toEqual([...stale].sort());
    expect(fs.readdirSync(dir).sort()).toEqual([...kept].sort());
  });
});
