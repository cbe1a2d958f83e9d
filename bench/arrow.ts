/**
 * Columnar outputs in the same run (docs/arrow.md):
 *
 * - `arrow.score.{csv,parquet,arrow}`: a seeded 1,000,000-row US portfolio scored to each format, each run in
 *   its own node process (end-to-end time a user waits for, the run's own `seconds`, peak RSS, file size);
 * - `arrow.events_live.{json,arrow}`: `GET /events/live?limit=1000` on the USGS week feed, the live index
 *   answering and the response cache off, as JSON and with `Accept: application/vnd.apache.arrow.stream`,
 *   requests in turn in this process (the app's fetch, no socket): requests a second and body size.
 *
 *   npm run bench -- arrow          CATINTEL_BENCH_ARROW_ROWS=200000 to try a smaller file
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeBenchPortfolio } from './bench-portfolio.js';
import { createApp } from '../src/http/app.js';
import { packageRoot } from '../src/lib/package-root.js';
import { child } from './child.js';
import { eventsContext } from './events-app.js';
import { emit, median } from './report.js';

const round = (x: number) => Math.round(x * 1000) / 1000;

export async function benchArrow(
  sharedData: string,
  runs = Number(process.env.CATINTEL_BENCH_ARROW_RUNS ?? 2),
): Promise<void> {
  await benchScoreFormats(sharedData, runs);
  await benchEventsLive(sharedData);
}

export async function benchScoreFormats(sharedData: string, runs: number): Promise<void> {
  const rows = Number(process.env.CATINTEL_BENCH_ARROW_ROWS ?? 1_000_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-arrow-'));
  try {
    const input = path.join(dir, 'portfolio.csv');
    await writeBenchPortfolio(input, rows, sharedData);
    const main = pathToFileURL(path.join(packageRoot(), 'dist', 'src', 'cli', 'main.js')).href;
    const script = (format: string) => `
      import { run } from ${JSON.stringify(main)};
      let out = '';
      const code = await run(['--quiet', '--json', 'score', '--input', ${JSON.stringify(input)}, '--out', ${JSON.stringify(path.join(dir, format))}, '--format', ${JSON.stringify(format)}],
        { stdout: (t) => (out += t), stderr: (t) => process.stderr.write(t), env: {}, isTTY: false });
      if (code !== 0) process.exit(code);
      console.log(out.replace(/\\n/g, ''));`;
    const formats = ['csv', 'parquet', 'arrow'] as const;
    const results = Object.fromEntries(formats.map((f) => [f, [] as Awaited<ReturnType<typeof child>>[]]));
    // Interleaved, so a slow moment of the machine falls on every format alike.
    for (let i = 0; i < runs; i++) for (const f of formats) results[f].push(await child(script(f)));
    const csvSeconds = median(results.csv.map((r) => r.seconds));
    for (const f of formats) {
      const summary = JSON.parse(results[f][0].output) as {
        rows: number;
        scored: number;
        outputs: { file: string; rows: number }[];
      };
      const file = summary.outputs[0].file;
      const seconds = median(results[f].map((r) => r.seconds));
      emit({
        name: `arrow.score.${f}`,
        n: summary.rows,
        seconds: round(seconds),
        per_second: Math.round(summary.rows / seconds),
        peak_rss_mb: Math.max(...results[f].map((r) => r.peakRssMb)),
        runs,
        work_seconds: round(median(results[f].map((r) => JSON.parse(r.output).seconds as number))),
        scored: summary.scored,
        file: path.basename(file),
        file_mb: Math.round(fs.statSync(file).size / 1024 / 102.4) / 10,
        ratio_to_csv: Math.round((seconds / csvSeconds) * 100) / 100,
      });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchEventsLive(sharedData: string): Promise<void> {
  const ctx = await eventsContext(sharedData, true);
  try {
    const app = createApp({ ctx, rateLimit: 'off', cacheTtlMs: 0, stream: { tickMs: 0 } });
    const url = 'http://localhost/api/v1/events/live?limit=1000';
    const get = async (accept?: string) => {
      const res = await app.fetch(new Request(url, { headers: accept ? { accept } : {} }));
      return (await res.arrayBuffer()).byteLength;
    };
    const forms = [
      { name: 'json', accept: undefined },
      { name: 'arrow', accept: 'application/vnd.apache.arrow.stream' },
    ];
    const requests = Number(process.env.CATINTEL_BENCH_ARROW_REQUESTS ?? 300);
    const timed: Record<string, { seconds: number; bytes: number }> = {};
    for (const f of forms) for (let i = 0; i < 20; i++) await get(f.accept); // warm both paths alike
    for (const f of forms) {
      let bytes = 0;
      const t0 = performance.now();
      for (let i = 0; i < requests; i++) bytes = await get(f.accept);
      timed[f.name] = { seconds: (performance.now() - t0) / 1000, bytes };
    }
    for (const f of forms) {
      const t = timed[f.name];
      emit({
        name: `arrow.events_live.${f.name}`,
        n: requests,
        seconds: round(t.seconds),
        per_second: Math.round(requests / t.seconds),
        peak_rss_mb: Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10,
        ms_per_request: round((t.seconds * 1000) / requests),
        body_kb: Math.round(t.bytes / 102.4) / 10,
        features: 1000,
        ratio_to_json: Math.round((t.seconds / timed.json.seconds) * 100) / 100,
      });
    }
  } finally {
    await ctx.db.close();
  }
}
