/**
 * `make run` compiles TypeScript only when a source changed: a second start goes straight to loading the
 * seed and serving. Checked with make's own dry run, so the test starts nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/paths.js';

const make = (...args: string[]) =>
  spawnSync('make', ['--no-print-directory', ...args], { cwd: REPO_ROOT, encoding: 'utf8' });

describe('make run', () => {
  it('does not recompile when nothing changed since the last build', () => {
    execFileSync('make', ['--no-print-directory', 'build'], { cwd: REPO_ROOT, stdio: 'ignore' }); // up to date, or brought up to date
    expect(make('--question', 'build').status).toBe(0);
    const plan = make('--dry-run', 'run');
    expect(plan.status).toBe(0);
    expect(plan.stdout).not.toMatch(/\btsc\b/);
    expect(plan.stdout).toMatch(/catintel .*serve/);
  });
});

describe('make test', () => {
  it('installs nothing outside npm and the DuckDB extension wheels: no apt-get, no sudo, no root (PDFs are read with the npm package mupdf)', () => {
    const plan = make('--dry-run', '--always-make', 'test');
    expect(plan.status).toBe(0);
    expect(plan.stdout).toMatch(/vitest run/);
    // A fresh clone's `make test` fetches DuckDB's spatial extension before the tests (docs/spatial.md).
    expect(plan.stdout).toMatch(/python3 scripts\/install-duckdb-extensions\.py[^]*vitest run/);
    expect(plan.stdout).not.toMatch(/apt-get|sudo|dpkg|install-poppler/);
  });
});
