/** A benchmark step in a fresh node process, with the peak RSS it reached (its own, not the runner's). */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface ChildResult {
  seconds: number;
  peakRssMb: number;
  /** User and system CPU time of the child, every thread of it. */
  cpuSeconds: number;
  output: string;
}

/** Runs an ES module snippet in a fresh node; it prints one JSON line, to which we add the peak RSS and CPU time. */
export function child(script: string): Promise<ChildResult> {
  const t0 = performance.now();
  const wrapped = `${script}\nprocess.stderr.write('\\n@@' + JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS, cpuUs: process.resourceUsage().userCPUTime + process.resourceUsage().systemCPUTime }) + '\\n');`;
  return new Promise((resolve, reject) => {
    // A module file, not --input-type=module -e: worker threads inherit the flags, and --input-type refuses them.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-child-'));
    const file = path.join(dir, 'step.mjs');
    fs.writeFileSync(file, wrapped);
    const p = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] });
    p.on('close', () => fs.rmSync(dir, { recursive: true, force: true }));
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('error', reject);
    p.on('close', (code) => {
      const seconds = (performance.now() - t0) / 1000;
      const m = /@@(\{.*\})/.exec(err);
      if (code !== 0 || !m) return reject(new Error(`bench child failed (exit ${code}): ${err.slice(-2000)}`));
      const usage = JSON.parse(m[1]);
      resolve({
        seconds,
        peakRssMb: Math.round(usage.maxRssKb / 102.4) / 10,
        cpuSeconds: Math.round(usage.cpuUs / 1e3) / 1e3,
        output: out,
      });
    });
  });
}
