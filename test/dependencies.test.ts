/**
 * docs/dependencies.md says what the code depends on and why. It must stay
 * true: every runtime dependency in package.json is listed and imported by src/ (a package nothing
 * imports is a liability, not a feature), every listed package is in package.json, and src/ imports no
 * package at run time that is missing from "dependencies" (a production install would lack it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { builtinModules } from 'node:module';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/paths.js';

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const runtime = Object.keys(pkg.dependencies);
const dev = Object.keys(pkg.devDependencies);

/** Packages named in the docs/dependencies.md table, split into runtime rows and rows marked "(dev)". */
function dependencyTable(): { runtime: string[]; dev: string[] } {
  const section = fs.readFileSync(path.join(REPO_ROOT, 'docs/dependencies.md'), 'utf8');
  const rows = section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| package') && !/^\|[-| ]+\|$/.test(l));
  const out = { runtime: [] as string[], dev: [] as string[] };
  for (const row of rows) {
    const first = row.split('|')[1];
    const names = first
      .replace(/\([^)]*\)/g, '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    (/\(dev\)/.test(first) ? out.dev : out.runtime).push(...names);
  }
  return out;
}

/** Every package src/ loads at run time (test files and type-only imports excluded). */
function runtimeImports(): Set<string> {
  const found = new Set<string>();
  const builtins = new Set(builtinModules);
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const text = fs.readFileSync(file, 'utf8');
        if (entry.name.endsWith('.tsx')) found.add('react'); // jsx: react-jsx compiles to react/jsx-runtime imports
        const specifiers = [
          ...[...text.matchAll(/^import\s+(?!type\s)[^'";]*?from\s+'([^']+)'/gm)].map((m) => m[1]),
          ...[...text.matchAll(/^import\s+'([^']+)'/gm)].map((m) => m[1]),
          ...[...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]),
          ...[...text.matchAll(/\brequire\(\s*'([^']+)'\s*\)|createRequire\([^)]*\)\(\s*'([^']+)'\s*\)/g)].map(
            (m) => m[1] ?? m[2],
          ),
        ];
        for (const s of specifiers) {
          if (s.startsWith('.') || s.startsWith('node:') || builtins.has(s)) continue;
          found.add(s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0]);
        }
      }
    }
  };
  walk(path.join(REPO_ROOT, 'src'));
  return found;
}

describe('docs/dependencies.md, the dependency table', () => {
  const table = dependencyTable();
  const imported = runtimeImports();

  it('lists every runtime dependency, and only packages that are dependencies', () => {
    expect(
      runtime.filter((d) => !table.runtime.includes(d)),
      'in package.json, missing from docs/dependencies.md',
    ).toEqual([]);
    expect(
      table.runtime.filter((d) => !runtime.includes(d)),
      'in docs/dependencies.md, not a runtime dependency',
    ).toEqual([]);
    expect(
      table.dev.filter((d) => !dev.includes(d)),
      'marked (dev) in docs/dependencies.md, not a devDependency',
    ).toEqual([]);
  });

  it('every runtime dependency is imported by src/, and src/ imports nothing else', () => {
    expect(
      runtime.filter((d) => !imported.has(d)),
      'runtime dependencies nothing in src/ imports',
    ).toEqual([]);
    expect(
      [...imported].filter((d) => !runtime.includes(d)),
      'imported by src/ at run time but not in "dependencies"',
    ).toEqual([]);
  });
});
