/**
 * Bulk scoring of a seeded 1,000,000-row OED location file to `--format oasis` (location.csv, keys.csv,
 * keys-errors.csv, errors.csv), against DuckDB alone reading the same CSV and writing the same number of
 * rows (`COPY (SELECT * FROM read_csv(...)) TO ...`). Both run in child processes of the same run, and
 * each is timed twice: end to end (process start, module load, the work, exit: what a user waits for)
 * and the work alone (the COPY statement; the scoring run's own `seconds`, from opening the input to the
 * last rename). Targets: ratio <= 2 and the scoring process's own peak RSS (process.resourceUsage().maxRSS,
 * the kernel's high-water mark, DuckDB's native memory included) under 1.5 GB. Medians of `runs` runs,
 * interleaved.
 *
 *   npm run bench -- score          CATINTEL_BENCH_SCORE_ROWS=200000 to try a smaller file
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeBenchPortfolio } from './bench-portfolio.js';
import { packageRoot } from '../src/lib/package-root.js';
import { child, type ChildResult } from './child.js';
import { emit, median } from './report.js';

export async function benchScore(sharedData: string, runs = 3): Promise<void> {
  const rows = Number(process.env.CATINTEL_BENCH_SCORE_ROWS ?? 1_000_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-score-'));
  try {
    const input = path.join(dir, 'portfolio.csv');
    await writeBenchPortfolio(input, rows, sharedData);
    const root = packageRoot();
    const duckdb = pathToFileURL(path.join(root, 'node_modules', '@duckdb', 'node-api', 'lib', 'index.js')).href;
    const main = pathToFileURL(path.join(root, 'dist', 'src', 'cli', 'main.js')).href;
    const q = (s: string) => JSON.stringify(s);

    const baselineScript = `
      import { DuckDBInstance } from ${q(duckdb)};
      const db = await DuckDBInstance.create(':memory:');
      const c = await db.connect();
      const t0 = performance.now();
      const r = await c.runAndReadAll(${q(`COPY (SELECT * FROM read_csv('${input}')) TO '${path.join(dir, 'duckdb-copy.csv')}' (HEADER)`)});
      console.log(JSON.stringify({ rows: Number(r.getRows()[0][0]), seconds: (performance.now() - t0) / 1000 }));`;
    const scoreScript = `
      import { run } from ${q(main)};
      let out = '';
      const code = await run(['--quiet', '--json', 'score', '--input', ${q(input)}, '--out', ${q(path.join(dir, 'oasis'))}, '--format', 'oasis'],
        { stdout: (t) => (out += t), stderr: (t) => process.stderr.write(t), env: {}, isTTY: false });
      if (code !== 0) process.exit(code);
      console.log(JSON.stringify(JSON.parse(out)));`;

    const base: ChildResult[] = [];
    const score: ChildResult[] = [];
    for (let i = 0; i < runs; i++) {
      base.push(await child(baselineScript));
      score.push(await child(scoreScript));
    }
    const baseRows = JSON.parse(base[0].output).rows as number;
    const summary = JSON.parse(score[0].output) as {
      rows: number;
      scored: number;
      errors: number;
      outside_coverage?: number;
      outputs: { file: string; rows: number }[];
    };
    const baseSeconds = median(base.map((r) => r.seconds));
    const baseWork = median(base.map((r) => JSON.parse(r.output).seconds as number));
    const scoreSeconds = median(score.map((r) => r.seconds));
    const scoreWork = median(score.map((r) => JSON.parse(r.output).seconds as number));
    const ratio = Math.round((scoreSeconds / baseSeconds) * 100) / 100;
    const workRatio = Math.round((scoreWork / baseWork) * 100) / 100;
    const peak = Math.max(...score.map((r) => r.peakRssMb));
    emit({
      name: 'score.duckdb_copy_baseline',
      n: baseRows,
      seconds: round(baseSeconds),
      per_second: Math.round(baseRows / baseSeconds),
      peak_rss_mb: Math.max(...base.map((r) => r.peakRssMb)),
      runs,
      work_seconds: round(baseWork),
    });
    emit({
      name: 'score.oasis',
      n: summary.rows,
      seconds: round(scoreSeconds),
      per_second: Math.round(summary.rows / scoreSeconds),
      peak_rss_mb: peak,
      runs,
      work_seconds: round(scoreWork),
      baseline_seconds: round(baseSeconds),
      baseline_work_seconds: round(baseWork),
      ratio_to_duckdb: ratio,
      work_ratio_to_duckdb: workRatio,
      target_ratio: 2,
      target_peak_rss_mb: 1536,
      scored: summary.scored,
      errors: summary.errors,
      outside_coverage: summary.outside_coverage,
      outputs: Object.fromEntries(summary.outputs.map((o) => [path.basename(o.file), o.rows])),
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const round = (x: number) => Math.round(x * 1000) / 1000;
