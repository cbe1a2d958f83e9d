/**
 * The README's Performance rows are bench/results.jsonl read through bench/goals.ts (one row a benchmark:
 * benchmark, result, target, met), as scripts/performance-table.ts writes them. It fails while the README
 * says something the results file does not, naming the command that rewrites the rows.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GOALS } from '../bench/goals.js';
import {
  END,
  RESULTS_FILE,
  START,
  mergeResults,
  parseResults,
  performanceRows,
  withPerformanceRows,
} from '../scripts/performance-table.js';
import { REPO_ROOT } from './helpers/paths.js';

const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const results = parseResults(fs.readFileSync(path.join(REPO_ROOT, RESULTS_FILE), 'utf8'));

/** The rows between the README's markers. */
function readmeRows(text: string): string[] {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  return start < 0 || end < start
    ? []
    : text
        .slice(start + START.length, end)
        .split('\n')
        .filter(Boolean);
}

describe("the README's Performance rows", () => {
  it('are what bench/results.jsonl says (else: node dist/scripts/performance-table.js)', () => {
    expect(
      readmeRows(readme),
      'README.md rows are stale: run `npx tsc -p tsconfig.json && node dist/scripts/performance-table.js`',
    ).toEqual(performanceRows(results));
  });

  it('are one line a benchmark, each with a result, a target and whether it is met', () => {
    const rows = readmeRows(readme).slice(2);
    expect(rows).toHaveLength(results.length);
    for (const row of rows) {
      const cells = row
        .split(/(?<!\\)\|/)
        .slice(1, -1)
        .map((c) => c.trim());
      expect(cells, row).toHaveLength(4);
      expect(cells[3], row).toMatch(/^(yes|\*\*no\*\*|—)$/);
      expect(cells[2] === '(for reference)', row).toBe(cells[3] === '—');
    }
    // Every recorded benchmark reads as a sentence, not as its bare name.
    expect(results.filter((m) => !GOALS[m.name]).map((m) => m.name)).toEqual([]);
    // A goal not met says so.
    expect(rows.find((r) => r.startsWith('| `catintel oasis files` vs oasislmf'))).toMatch(/\| \*\*no\*\* \|$/);
  });

  it('follow a recorded run: a line replaces the one of its name, and its row says whether the goal is met', () => {
    const slower = { ...results.find((m) => m.name === 'ingest.usgs_week_feed')!, seconds: 1.4, per_second: 2311 };
    const merged = mergeResults(results, [
      slower,
      { name: 'ingest.new_thing', n: 10, seconds: 0.5, per_second: 20, peak_rss_mb: 100, target_seconds: 1 },
    ]);
    expect(merged).toHaveLength(results.length + 1);
    const rewritten = readmeRows(withPerformanceRows(readme, merged));
    expect(rewritten.find((r) => r.includes('USGS week feed'))).toMatch(
      /\| 1\.4 s \(2,311 records\/s\), peak RSS 214 MB \| < 1 s \| \*\*no\*\* \|$/,
    );
    expect(rewritten.at(-1)).toBe('| `ingest.new_thing` (n = 10) | 0.5 s, 20/s, peak RSS 100 MB | < 1 s | yes |');
    expect(withPerformanceRows(readme, merged)).not.toBe(readme);
  });

  it('refuses a README without the markers, naming them', () => {
    expect(() => withPerformanceRows('# no table here\n', results)).toThrow(/performance:start/);
  });
});
