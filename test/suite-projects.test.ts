/**
 * The suite's grouping (test/projects.ts) stays true as files come and go: every file that starts a child
 * process is in the process project, which runs after the in-process ones, and every file the list names
 * exists, so no test file drops out of the run unnoticed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_CHECK_GLOB, PROCESS_FILES } from './projects.js';
import { REPO_ROOT } from './helpers/paths.js';

const CHILD_PROCESSES = /\b(spawn|spawnSync|execFile|execFileSync|execSync|fork|runAndKill|startServe)\(/;

function testFiles(): string[] {
  return ['src', 'test']
    .flatMap((dir) => (fs.readdirSync(path.join(REPO_ROOT, dir), { recursive: true }) as string[]).map((f) => `${dir}/${f.split(path.sep).join('/')}`))
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
}

describe('the suite projects', () => {
  it('put every test file that starts a child process in the process project', () => {
    const spawning = testFiles().filter((f) => CHILD_PROCESSES.test(fs.readFileSync(path.join(REPO_ROOT, f), 'utf8')));
    expect(spawning.length).toBeGreaterThan(20);
    expect(spawning.filter((f) => !PROCESS_FILES.includes(f))).toEqual([]);
  });

  it('name only test files that exist, once each', () => {
    const all = new Set(testFiles());
    expect(PROCESS_FILES.filter((f) => !all.has(f))).toEqual([]);
    expect(new Set(PROCESS_FILES).size).toBe(PROCESS_FILES.length);
    expect(DATA_CHECK_GLOB.startsWith('test/data-check/')).toBe(true);
    expect([...all].filter((f) => f.startsWith('test/data-check/')).length).toBe(4);
  });
});
