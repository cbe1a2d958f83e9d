/**
 * Shared maths has one home (docs/architecture.md#one-home-for-shared-maths): the normal cdf and ppf in
 * src/lib/numerics/, the knot in src/lib/numerics/units.ts, the Earth's radius and the great-circle distance
 * in src/lib/geo.ts, Emanuel's damage function and PAGER's loss-rate parameters once each. A second
 * definition anywhere else in src/ fails here with the file that holds it; a variant that must differ gets
 * its own name in the home module, with a line saying why.
 *
 * Comments and string literals are left out of the search (they may quote a formula or a coefficient).
 * src/loss/assembly is AssemblyScript compiled to WebAssembly on its own: it cannot import the TypeScript
 * modules, so it keeps its own copy of the ppf (its tests compare the two bit for bit).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/paths.js';

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (full !== path.join(REPO_ROOT, 'src/loss/assembly')) out.push(...sourceFiles(full));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) out.push(full);
  }
  return out;
}

/** The code of a file with comments and string/template literals blanked out. */
function codeOnly(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === '\\' ? 2 : 1;
      out += c + ' '.repeat(Math.max(0, j - i - 1)) + c;
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

const FILES = sourceFiles(path.join(REPO_ROOT, 'src')).map((file) => ({
  file: path.relative(REPO_ROOT, file).split(path.sep).join('/'),
  code: codeOnly(fs.readFileSync(file, 'utf8')),
}));

/** The files whose code matches. */
const holding = (re: RegExp) =>
  FILES.filter((f) => re.test(f.code))
    .map((f) => f.file)
    .sort();

/** A numeric literal as written, not part of a longer number or name. */
const literal = (n: string) => new RegExp(`(?<![\\w.])${n.replace('.', '\\.')}(?![\\d])`);

const HOMES: { what: string; re: RegExp; home: string[] }[] = [
  {
    what: 'a normal cdf, ppf or error function',
    re: /(function\s+|(const|let)\s+)(norm\w*(cdf|ppf)\w*|erfc?\w*)\s*[=(<]/i,
    home: ['src/lib/numerics/normal-exact.ts', 'src/lib/numerics/normal.ts'],
  },
  { what: "Emanuel's damage function", re: /function\s+emanuel\w*/i, home: ['src/domain/scoring/score-math.ts'] },
  { what: "Emanuel's V_thr (25.7 m/s)", re: literal('25.7'), home: ['src/domain/scoring/score-math.ts'] },
  { what: "PAGER's US economic-loss θ (11.5055)", re: literal('11.5055'), home: ['src/domain/scoring/score-math.ts'] },
  { what: "PAGER's US fatality θ (46.155)", re: literal('46.155'), home: ['src/intelligence/domain/pager.ts'] },
  { what: 'KT_TO_MS', re: /\bKT_TO_MS\s*=/, home: ['src/lib/numerics/units.ts'] },
  { what: 'the knot in m/s (0.514444)', re: literal('0.514444'), home: ['src/lib/numerics/units.ts'] },
  { what: "the Earth's radius (6371)", re: /(?<![\w.])6371(\.\d+)?(?![\d])/, home: ['src/lib/geo.ts'] },
  {
    what: 'a haversine or great-circle distance',
    re: /function\s+\w*(haversine|greatcircle)\w*/i,
    home: ['src/lib/geo.ts'],
  },
];

describe('shared maths has one home', () => {
  for (const h of HOMES) {
    it(`${h.what} is defined only in ${h.home.join(' and ')}`, () => {
      expect(holding(h.re)).toEqual(h.home);
    });
  }
});
