/**
 * Kill trials: run the compiled CLI (bin/catintel) as a real child process and SIGKILL it at a chosen
 * moment, as a power cut or an OOM killer would. Kill points come from a seeded generator, so a failure
 * names its seed and offset and can be replayed (CATINTEL_KILL_SEED).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './paths.js';
import { mulberry32 } from '../../src/lib/random.js';

/** The compiled CLI (`make test` builds it first); CATINTEL_TEST_BIN points at another build. */
export const BIN = process.env.CATINTEL_TEST_BIN ?? path.join(REPO_ROOT, 'bin', 'catintel');

/** Seeded kill points: CATINTEL_KILL_SEED replays a run. */
export const seeded = mulberry32;

export const KILL_SEED = Number(process.env.CATINTEL_KILL_SEED ?? 20261125);

/**
 * Kill points per trial file. Each point is a child process started and killed, and the trial files were
 * a fifth of the suite's time at 20 points: `make test` takes 12, CI the full 20 (CATINTEL_KILL_POINTS=20,
 * set by .ci/run). A file's thresholds (how many kills must land inside a run) are fractions of this count,
 * so both counts check the same thing. Not fewer: at 6, the oasis files trial's 3 kills aimed at its short
 * writing window all missed it on a loaded machine, and a trial that proves nothing fails.
 */
export const KILL_POINTS = killPointsFrom(process.env.CATINTEL_KILL_POINTS);

function killPointsFrom(value: string | undefined): number {
  if (value === undefined || value === '') return 12;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 4 || n % 2 !== 0)
    throw new Error(`CATINTEL_KILL_POINTS=${value}: give an even whole number of 4 or more (20 is the full count)`);
  return n;
}

/** The full count of kill points: what CI runs (CATINTEL_KILL_POINTS=20). */
export const FULL_KILL_POINTS = 20;

/**
 * The kills of a trial whose full count is `full` (at 20 points), scaled to this run's KILL_POINTS: the
 * trials that alternate two runs kept their own counts (20, 24) and take the same share of them.
 */
export function killsFor(full: number): number {
  return Math.max(4, Math.round((full * KILL_POINTS) / FULL_KILL_POINTS));
}

/**
 * How the files that kill on several stores split their points: stores run two at a time, each its kills
 * in order, then a re-run. 20 points are 4 stores of 5 (as the trials have always run), 12 are 2 of 6.
 */
export function storesFor(points: number): { stores: number; perStore: number } {
  const stores = Math.max(2, 2 * Math.round(points / 10));
  return { stores, perStore: Math.ceil(points / stores) };
}

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
  const child = spawn(process.execPath, [BIN, ...argv], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
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

/**
 * The length of an uninterrupted run, as the machine runs now. Kill points are seeded fractions of it; a
 * suite's load changes while it runs (a run measured at 11 s under load took 3 s a minute later, and most
 * kill points then fell after the run had ended), so every run that finishes on its own re-measures it.
 */
export class RunLength {
  constructor(private ms: number) {}

  /** The kill time at `fraction` of a run (above 1: after a run would end, to also kill over a finished one). */
  at(fraction: number): number {
    return Math.round(50 + fraction * this.ms);
  }

  observe(trial: Trial): void {
    if (trial.finished && trial.code === 0) this.ms = trial.ms;
  }
}
