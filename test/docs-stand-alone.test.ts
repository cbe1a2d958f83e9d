/**
 * The repository stands on its own: no tracked file cites a document a reader of the repository does
 * not have, and every relative link in the docs reaches a file (and heading) that exists. The decisions
 * the code follows are written in docs/ (contract.md, methods.md, architecture.md, the topic pages).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..');
const SELF = 'test/docs-stand-alone.test.ts';

/** Tracked files, as a fresh clone has them. */
const tracked: string[] = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' })
  .split('\0')
  .filter((f) => f !== '' && fs.existsSync(path.join(ROOT, f)) && fs.statSync(path.join(ROOT, f)).isFile());

const TEXT = /\.(ts|tsx|js|mjs|cjs|md|ya?ml|json|sh|txt|csv|html|css)$|^(Makefile|\.ci\/run)$/;

/** Citations of documents outside the repository (its own docs say the same in its own words). */
const OUTSIDE: { name: string; re: RegExp }[] = [
  { name: 'the contract file', re: /\bCONTRACT(\.md|\s*(§|section\b|"))/ },
  { name: 'the design file', re: /\bDESIGN\.md\b/ },
  { name: 'the science reference', re: /\bmodels\.md\b/ },
  { name: 'a shared reference note', re: /shared\/reference\b|\b(oasis|parametric|acord|ics209)\.md\b/ },
  {
    name: 'the service specification',
    re: /shared\/spec\b|catastrophe-intelligence-api-v1\.md|\bspec(ification)?('s)? \(?(§|section \d)/,
  },
];

function isBinary(text: string): boolean {
  return text.includes('\0');
}

describe('no file cites a document outside the repository', () => {
  it('finds no citation of the contract, design, science or specification files outside it', () => {
    const found: string[] = [];
    for (const file of tracked) {
      if (file === SELF || !TEXT.test(file)) continue;
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      if (isBinary(text)) continue;
      text.split('\n').forEach((line, i) => {
        for (const { name, re } of OUTSIDE) {
          if (re.test(line)) found.push(`${file}:${i + 1}: cites ${name}: ${line.trim().slice(0, 120)}`);
        }
      });
    }
    expect(found, `cite docs/ instead:\n${found.join('\n')}`).toEqual([]);
  });
});

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of stripFences(markdown).split('\n')) {
    const explicit = line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g);
    for (const m of explicit) anchors.add(m[1]);
    const h = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!h) continue;
    const text = h[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Fenced blocks hold examples, not headings or links. */
function stripFences(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** Inline code holds examples too. */
function stripCode(markdown: string): string {
  return stripFences(markdown).replace(/`[^`\n]*`/g, '');
}

describe('every relative link in the docs resolves', () => {
  const pages = tracked.filter((f) => /^docs\/.*\.md$/.test(f) || f === 'README.md');
  const trackedSet = new Set(tracked);
  const dirs = new Set(
    tracked.flatMap((f) =>
      f
        .split('/')
        .slice(0, -1)
        .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
    ),
  );

  it('reaches an existing file and heading for every link', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
      stripCode(text)
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
            const target = m[1];
            if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
            const [file, anchor] = target.split('#');
            const resolved =
              file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURI(file)));
            const where = `${page}:${i + 1}: ${target}`;
            if (!trackedSet.has(resolved) && !dirs.has(resolved.replace(/\/$/, ''))) {
              broken.push(`${where}: no such file in the repository`);
              continue;
            }
            if (anchor && resolved.endsWith('.md')) {
              const anchors = headingAnchors(fs.readFileSync(path.join(ROOT, resolved), 'utf8'));
              if (!anchors.has(anchor)) broken.push(`${where}: no heading #${anchor} in ${resolved}`);
            }
          }
        });
    }
    expect(broken, broken.join('\n')).toEqual([]);
  });

  it('reaches an existing page and heading for every docs/ reference in code and scripts', () => {
    const broken: string[] = [];
    for (const file of tracked) {
      if (file === SELF || !TEXT.test(file) || file.endsWith('.md')) continue;
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      if (isBinary(text)) continue;
      text.split('\n').forEach((line, i) => {
        for (const m of line.matchAll(/\bdocs\/([\w./-]+?\.md)(?:#([\w-]+))?/g)) {
          const page = `docs/${m[1]}`;
          const where = `${file}:${i + 1}: ${m[0]}`;
          if (!trackedSet.has(page)) broken.push(`${where}: no such page`);
          else if (m[2] && !headingAnchors(fs.readFileSync(path.join(ROOT, page), 'utf8')).has(m[2]))
            broken.push(`${where}: no heading #${m[2]} in ${page}`);
        }
      });
    }
    expect(broken, broken.join('\n')).toEqual([]);
  });

  it('computes heading anchors as the repository host does', () => {
    const anchors = headingAnchors(
      '# OGC API - Features\n## Saved locations (free tier)\n## `catintel serve` flags\n## Rules\n## Rules\n',
    );
    expect([...anchors]).toEqual([
      'ogc-api---features',
      'saved-locations-free-tier',
      'catintel-serve-flags',
      'rules',
      'rules-1',
    ]);
  });
});
