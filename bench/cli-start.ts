/**
 * The CLI's start: `bin/catintel` spawned `runs` times for each of `--help` (every command's definition),
 * `events live --help` (one command's) and `events live --json` on the seeded store (the commands scripts,
 * cron jobs and the suite's process tests run). Most of a short command's time is loading modules, so this
 * is what lazy loading (src/cli/single-command.ts, the `await import()`s of heavy libraries) is measured by.
 * Each: the median over the runs of the child's wall `seconds`, `cpu_seconds` (user + system) and peak RSS.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../src/lib/package-root.js';
import { emit, median } from './report.js';

interface Spawned {
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
}

/** Written into the child before the CLI loads: its own CPU time and peak RSS, on stderr as it exits. */
const USAGE_ON_EXIT = `process.on('exit', () => {
  const u = process.resourceUsage();
  process.stderr.write('\\n@@' + JSON.stringify({ cpuUs: u.userCPUTime + u.systemCPUTime, maxRssKb: u.maxRSS }) + '\\n');
});\n`;

function spawnCli(usageModule: string, args: string[], env: Record<string, string>): Promise<Spawned> {
  const t0 = performance.now();
  const bin = path.join(packageRoot(), 'bin', 'catintel');
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, ['--import', usageModule, bin, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
    });
    let err = '';
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => {
      const m = /@@(\{.*\})/.exec(err);
      if (code !== 0 || !m) return reject(new Error(`catintel ${args.join(' ')} failed (exit ${code}): ${err}`));
      const usage = JSON.parse(m[1]);
      resolve({
        seconds: (performance.now() - t0) / 1000,
        cpuSeconds: usage.cpuUs / 1e6,
        peakRssMb: usage.maxRssKb / 1024,
      });
    });
  });
}

export async function benchCliStart(sharedData: string, runs = 10): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-cli-'));
  try {
    const usageModule = path.join(dir, 'usage-on-exit.mjs');
    fs.writeFileSync(usageModule, USAGE_ON_EXIT);
    const asOf = fs.readFileSync(path.join(packageRoot(), 'data', 'seed', 'as-of.txt'), 'utf8').trim();
    const env = { CATINTEL_SHARED_DATA: sharedData, CATINTEL_NOW: asOf };
    const store = path.join(dir, 'seed.duckdb');
    await spawnCli(usageModule, ['--db', store, '--quiet', 'db', 'seed'], env);
    const cases: [string, string[]][] = [
      ['cli_start.help', ['--help']],
      ['cli_start.command_help', ['events', 'live', '--help']],
      ['cli_start.events_live', ['--db', store, 'events', 'live', '--json']],
    ];
    for (const [name, args] of cases) {
      const spawned: Spawned[] = [];
      for (let i = 0; i < runs; i++) spawned.push(await spawnCli(usageModule, args, env));
      const seconds = median(spawned.map((s) => s.seconds));
      emit({
        name,
        n: runs,
        seconds: Math.round(seconds * 1000) / 1000,
        per_second: Math.round((1 / seconds) * 10) / 10,
        peak_rss_mb: Math.round(median(spawned.map((s) => s.peakRssMb)) * 10) / 10,
        cpu_seconds: Math.round(median(spawned.map((s) => s.cpuSeconds)) * 1000) / 1000,
        command: `catintel ${args.map((a) => (a === store ? 'SEEDED.duckdb' : a)).join(' ')}`,
        load_average: os.loadavg().slice(0, 2),
      });
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
