/**
 * The README is the front door: short enough to read in five minutes, its first section says what each
 * make target needs on a fresh machine (the Node version package.json asks for, the shared data for the
 * tests, Python only for conformance, root only where it says so), and its links reach every page in docs/.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/paths.js';

const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };

/** A `## ` section's text, up to the next one. */
function section(title: string): string {
  const start = readme.indexOf(`\n## ${title}\n`);
  if (start < 0) return '';
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

describe('the README', () => {
  it('is at most 150 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(150);
  });

  it('says first, after the pitch, what make run and make test need (Python only for pip download of the DuckDB extension), and that only conformance needs a Python venv or root', () => {
    const sections = [...readme.matchAll(/^## (.*)$/gm)].map((m) => m[1]);
    expect(sections[0]).toBe('What you need');
    const needs = section('What you need');
    const [run, test, conformance] = ['make run', 'make test', 'make conformance'].map(
      (t) => needs.split('\n- ').find((b) => b.startsWith(`**\`${t}\`**`)) ?? '',
    );
    expect(run).toContain(`Node.js ${pkg.engines.node.replace(/^>=\s*/, '')} or later`);
    expect(run).toMatch(/\bnpm\b/);
    expect(test).toContain('../shared/data');
    for (const tool of ['git', '`bash`', '`curl`', '`jq`']) expect(test).toContain(tool);
    // make install fetches DuckDB's spatial extension with `pip download`: pip, no venv, no packages installed
    expect(run).toMatch(/Python 3 with `pip`/);
    expect(`${run}\n${test}`).not.toMatch(/venv/i);
    expect(conformance).toMatch(/Python 3/);
    expect(conformance).toMatch(/apt-get.*\n?.*needs root or sudo/);
    // root is named only where a step needs it, or where a test that needs it is skipped without it
    expect(needs).toMatch(/Nothing here needs root or a system package, except where it says so/);
  });

  it('links every page in docs/', () => {
    const pages = fs
      .readdirSync(path.join(REPO_ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`);
    expect(pages.length).toBeGreaterThan(20);
    const linked = new Set([...section('Documentation').matchAll(/\]\((docs\/[^)#]+)/g)].map((m) => m[1]));
    expect(
      pages.filter((p) => !linked.has(p)),
      "add a line for each to the README's Documentation section",
    ).toEqual([]);
  });
});
