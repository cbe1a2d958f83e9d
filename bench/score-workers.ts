/**
 * Bulk scoring on workers (docs/scale-out.md): one seeded generated US portfolio (default 1,000,000 rows)
 * scored to `--format csv` three ways in the same run, each a fresh process: single-node `catintel score`,
 * `score --queue` on 1 worker, and on 2 workers, against a throwaway PostgreSQL. Wall times are the
 * submitting process's, start to exit (what a user waits for; the workers are started and idle before it).
 * The scaling ratio is 1-worker seconds / 2-worker seconds (2.0 would be perfect; the goal is 1.7
 * on this 2-core machine). The three output sets must be identical (manifest SHA-256s), or the bench fails.
 * The machine's load average before and after is part of every line: other work on the cores moves the ratio.
 *
 *   npm run bench -- score-workers [--rows 10000000] [--chunks 8]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeBenchPortfolio } from './bench-portfolio.js';
import { startThrowawayPostgres } from '../src/cluster/throwaway-postgres.js';
import { packageRoot } from '../src/lib/package-root.js';
import { child, type ChildResult } from './child.js';
import { emit } from './report.js';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v < 1)
    throw new Error(`--${name} ${process.argv[i + 1]}: give a whole number of 1 or more`);
  return v;
}

export async function benchScoreWorkers(sharedData: string): Promise<void> {
  const rows = option('rows', 1_000_000);
  const chunks = option('chunks', 8);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-workers-'));
  const db = await startThrowawayPostgres();
  try {
    const input = path.join(dir, 'portfolio.csv');
    await writeBenchPortfolio(input, rows, sharedData);
    const main = pathToFileURL(path.join(packageRoot(), 'dist', 'src', 'cli', 'main.js')).href;
    const cli = (argv: string[]) => `
      import { run } from ${JSON.stringify(main)};
      let out = '';
      const code = await run(${JSON.stringify(['--quiet', '--json', ...argv])},
        { stdout: (t) => (out += t), stderr: (t) => process.stderr.write(t), env: {}, isTTY: false });
      if (code !== 0) process.exit(code);
      console.log(JSON.stringify(JSON.parse(out)));`;
    const score = (out: string, queue: boolean) =>
      cli([
        'score',
        '--input',
        input,
        '--out',
        path.join(dir, out),
        ...(queue ? ['--queue', db.url, '--chunks', String(chunks)] : []),
      ]);

    const load0 = os.loadavg();
    const single = await child(score('single', false));
    // Idle long enough to outlast the submitter's split pass (one scan of the file) before the first chunk.
    const worker = cli(['worker', '--queue', db.url, '--idle-exit', String(Math.max(10, Math.ceil(rows / 200_000)))]);
    const one = await onWorkers(1, score('one', true), worker);
    const two = await onWorkers(2, score('two', true), worker);
    const load1 = os.loadavg();

    const digests = ['single', 'one', 'two'].map((d) => {
      const m = JSON.parse(fs.readFileSync(path.join(dir, d, 'manifest.json'), 'utf8'));
      return JSON.stringify(m.outputs.map((o: { file: string; sha256: string }) => [o.file, o.sha256]));
    });
    if (digests[1] !== digests[0] || digests[2] !== digests[0])
      throw new Error(`score-workers: the outputs differ between single-node and queued runs: ${digests.join(' | ')}`);

    const n = JSON.parse(single.output).rows as number;
    const load = { load_before: load0.map(round), load_after: load1.map(round), cores: os.cpus().length };
    const line = (name: string, r: ChildResult, extra: Record<string, unknown> = {}) =>
      emit({
        name,
        n,
        seconds: round(r.seconds),
        per_second: Math.round(n / r.seconds),
        peak_rss_mb: r.peakRssMb,
        ...extra,
        ...load,
      });
    line('score_workers.single_node', single);
    line('score_workers.1_worker', one.submit, { chunks, worker_peak_rss_mb: one.workerRss });
    line('score_workers.2_workers', two.submit, {
      chunks,
      worker_peak_rss_mb: two.workerRss,
      scaling_2_vs_1: round(one.submit.seconds / two.submit.seconds),
      goal: 1.7,
      vs_single_node: round(single.seconds / two.submit.seconds),
    });
  } finally {
    await db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Starts `n` workers, lets them connect, then times the submitting process; the workers exit when idle. */
async function onWorkers(
  n: number,
  submitScript: string,
  workerScript: string,
): Promise<{ submit: ChildResult; workerRss: number[] }> {
  const workers = Array.from({ length: n }, () => child(workerScript));
  await new Promise((r) => setTimeout(r, 1500));
  const submit = await child(submitScript);
  const done = await Promise.all(workers);
  return { submit, workerRss: done.map((w) => w.peakRssMb) };
}

const round = (x: number) => Math.round(x * 100) / 100;
