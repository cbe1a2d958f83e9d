/**
 * Kill trials: run the compiled CLI (bin/catintel) as a real child process and SIGKILL it at a chosen
 * moment, as a power cut or an OOM killer would. Kill points come from a seeded generator, so a failure
 * names its seed and offset and can be replayed (CATINTEL_KILL_SEED).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';

/** The compiled CLI (`make test` builds it first); CATINTEL_TEST_BIN points at another build. */
export const BIN = process.env.CATINTEL_TEST_BIN ?? path.join(REPO_ROOT, 'bin', 'catintel');

/** mulberry32: small, seeded, good enough to spread kill points. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const KILL_SEED = Number(process.env.CATINTEL_KILL_SEED ?? 20261125);

export interface Trial {
  /** The process finished on its own before the kill time. */
  finished: boolean;
  code: number | null;
  stderr: string;
  ms: number;
}

/** Runs `catintel argv` and SIGKILLs it after killAfterMs (Infinity: let it finish). */
export function runAndKill(argv: string[], killAfterMs: number, env: Record<string, string> = {}): Promise<Trial> {
  const t0 = Date.now();
  const child = spawn(process.execPath, [BIN, ...argv], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  let killed = false;
  const timer = Number.isFinite(killAfterMs)
    ? setTimeout(() => {
        killed = child.kill('SIGKILL');
      }, killAfterMs)
    : undefined;
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ finished: !(killed && signal === 'SIGKILL'), code, stderr, ms: Date.now() - t0 });
    });
  });
}
