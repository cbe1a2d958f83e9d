/**
 * The suite's grouping (test/projects.ts) stays true as files come and go: every file that starts a child
 * process is in the process project, which runs after the in-process ones, and every file the list names
 * exists, so no test file drops out of the run unnoticed; and the slowest files start first on a fresh
 * clone, where vitest has no durations of earlier runs to order by.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import config from '../vitest.config.js';
import { CLUSTER_GLOB, DATA_CHECK_GLOB, PROCESS_FILES, SLOWEST_FIRST } from './projects.js';
import { REPO_ROOT } from './helpers/paths.js';
import SlowestFirstSequencer from './helpers/sequencer.js';

const CHILD_PROCESSES = /\b(spawn|spawnSync|execFile|execFileSync|execSync|fork|runAndKill|startServe)\(/;

function testFiles(): string[] {
  return ['src', 'test']
    .flatMap((dir) =>
      (fs.readdirSync(path.join(REPO_ROOT, dir), { recursive: true }) as string[]).map(
        (f) => `${dir}/${f.split(path.sep).join('/')}`,
      ),
    )
    .filter((f) => f.endsWith('.test.ts'))
    .sort();
}

describe('the suite projects', () => {
  it('put every test file that starts a child process in the process project (the cluster checks in their own)', () => {
    const spawning = testFiles().filter((f) => CHILD_PROCESSES.test(fs.readFileSync(path.join(REPO_ROOT, f), 'utf8')));
    expect(spawning.length).toBeGreaterThan(20);
    expect(spawning.filter((f) => !PROCESS_FILES.includes(f) && !f.startsWith('test/cluster/'))).toEqual([]);
  });

  it('run the cluster checks only in make test-cluster (CATINTEL_CLUSTER=1), never in make test', () => {
    expect(CLUSTER_GLOB.startsWith('test/cluster/')).toBe(true);
    const cluster = testFiles().filter((f) => f.startsWith('test/cluster/'));
    expect(cluster.length).toBeGreaterThan(0);
    expect(cluster.filter((f) => PROCESS_FILES.includes(f))).toEqual([]);
    const projects = (config.test?.projects ?? []) as { test: { name: string; exclude?: string[] } }[];
    const integration = projects.find((p) => p.test.name === 'integration');
    expect(integration?.test.exclude).toContain(CLUSTER_GLOB);
    expect(projects.some((p) => p.test.name === 'cluster')).toBe(process.env.CATINTEL_CLUSTER === '1');
    const makefile = fs.readFileSync(path.join(REPO_ROOT, 'Makefile'), 'utf8');
    expect(makefile).toMatch(/^test-cluster: build\n\tCATINTEL_CLUSTER=1 npx vitest run --project cluster/m);
  });

  it('name only test files that exist, once each', () => {
    const all = new Set(testFiles());
    expect(PROCESS_FILES.filter((f) => !all.has(f))).toEqual([]);
    expect(new Set(PROCESS_FILES).size).toBe(PROCESS_FILES.length);
    expect(DATA_CHECK_GLOB.startsWith('test/data-check/')).toBe(true);
    expect([...all].filter((f) => f.startsWith('test/data-check/')).length).toBe(4);
  });
});

/**
 * The process project's files as vitest hands them to its sequencer on a fresh clone: no results of an
 * earlier run, only each file's size on disk (vitest then starts larger files first).
 */
function freshCloneSpecs(): { specs: TestSpecification[]; ctx: Vitest } {
  const project = { name: 'process', config: { sequence: { groupOrder: 1 }, isolate: true } };
  const specs = PROCESS_FILES.map((f) => ({
    project,
    moduleId: path.join(REPO_ROOT, f),
  })) as unknown as TestSpecification[];
  const ctx = {
    config: { root: REPO_ROOT },
    cache: {
      getFileTestResults: () => undefined,
      getFileStats: (key: string) => ({
        size: fs.statSync(path.join(REPO_ROOT, key.slice(key.indexOf(':') + 1))).size,
      }),
    },
  } as unknown as Vitest;
  return { specs, ctx };
}

describe('the order files start in', () => {
  it('is the suite sequencer, slowest files first', () => {
    expect(config.test?.sequence?.sequencer).toBe(SlowestFirstSequencer);
  });

  it('starts the slowest process files first on a fresh clone (vitest alone started the kill trials among the last)', async () => {
    const { specs, ctx } = freshCloneSpecs();
    const order = (await new SlowestFirstSequencer(ctx).sort(specs)).map((s) => path.relative(REPO_ROOT, s.moduleId));
    const slowProcess = SLOWEST_FIRST.filter((f) => PROCESS_FILES.includes(f));
    expect(order.slice(0, slowProcess.length)).toEqual(slowProcess);
    expect(order.slice(0, 2)).toEqual(['test/readme-examples.test.ts', 'test/kills-triggers.test.ts']);
    expect([...order].sort()).toEqual([...PROCESS_FILES].sort());
  });

  it('name only test files that exist, once each', () => {
    const all = new Set(testFiles());
    expect(SLOWEST_FIRST.filter((f) => !all.has(f))).toEqual([]);
    expect(new Set(SLOWEST_FIRST).size).toBe(SLOWEST_FIRST.length);
  });
});
