/**
 * The README's Performance rows (benchmark, result, target, met), written from bench/results.jsonl: the
 * latest accepted line of each benchmark, as `npm run bench` prints it, read through bench/goals.ts. The
 * rows sit between two markers in README.md; test/performance-table.test.ts fails when they are not what
 * this writes.
 *
 *   node dist/scripts/performance-table.js                     rewrite the README rows from bench/results.jsonl
 *   node dist/scripts/performance-table.js --record FILE...    first put FILE's bench lines into bench/results.jsonl
 *                                                              (a line replaces the one of the same name; "-": stdin)
 *   node dist/scripts/performance-table.js --check             exit 1, naming the fix, when the README rows are stale
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GOALS, plainGoal } from '../bench/goals.js';
import type { Measurement } from '../bench/report.js';

export const RESULTS_FILE = 'bench/results.jsonl';
export const START =
  '<!-- performance:start: written by scripts/performance-table.ts from bench/results.jsonl, do not edit -->';
export const END = '<!-- performance:end -->';
const REGENERATE = 'node dist/scripts/performance-table.js';

/** The measurements of a JSON-lines text; anything else on a line (a log line) is refused by name. */
export function parseResults(text: string, source = RESULTS_FILE): Measurement[] {
  return text
    .split('\n')
    .map((line, i) => [line.trim(), i + 1] as const)
    .filter(([line]) => line.startsWith('{'))
    .map(([line, n]) => {
      const m = JSON.parse(line) as Measurement;
      if (typeof m.name !== 'string') throw new Error(`${source}:${n}: a bench line needs a "name"`);
      return m;
    });
}

/** `recorded` put into `results`: a line replaces the one of the same name in place; new names go last. */
export function mergeResults(results: Measurement[], recorded: Measurement[]): Measurement[] {
  const out = [...results];
  for (const m of recorded) {
    const i = out.findIndex((r) => r.name === m.name);
    if (i >= 0) out[i] = m;
    else out.push(m);
  }
  return out;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** One row a measurement: benchmark, result, target, met (yes, **no**, or — for a figure kept for reference). */
export function performanceRows(results: Measurement[]): string[] {
  return [
    '| benchmark | result | target | met |',
    '|---|---|---|---|',
    ...results.map((m) => {
      const goal = GOALS[m.name] ?? plainGoal(m);
      const met = goal.met ? (goal.met(m) ? 'yes' : '**no**') : '—';
      return `| ${cell(goal.label(m))} | ${cell(goal.result(m))} | ${cell(goal.target ?? '(for reference)')} | ${met} |`;
    }),
  ];
}

/** The README with its Performance rows written from `results`. */
export function withPerformanceRows(readme: string, results: Measurement[]): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start)
    throw new Error(`README.md has no Performance markers: put ${START} and ${END} around the table`);
  return `${readme.slice(0, start + START.length)}\n${performanceRows(results).join('\n')}\n${readme.slice(end)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const resultsPath = path.join(root, RESULTS_FILE);
  const readmePath = path.join(root, 'README.md');
  const args = process.argv.slice(2);
  let results = parseResults(fs.readFileSync(resultsPath, 'utf8'));
  if (args[0] === '--record') {
    for (const file of args.slice(1)) {
      const text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
      results = mergeResults(results, parseResults(text, file));
    }
    fs.writeFileSync(resultsPath, results.map((m) => JSON.stringify(m)).join('\n') + '\n');
  }
  const readme = fs.readFileSync(readmePath, 'utf8');
  const updated = withPerformanceRows(readme, results);
  if (args[0] === '--check') {
    if (updated !== readme) {
      process.stderr.write(`README.md's Performance rows are not what ${RESULTS_FILE} says; run \`${REGENERATE}\`\n`);
      process.exit(1);
    }
  } else fs.writeFileSync(readmePath, updated);
}
