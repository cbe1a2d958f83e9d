/**
 * `catintel oasis files` side by side with oasislmf's `model generate-oasis-files` on the same seeded OED
 * book (bench/synthetic-oed.ts: site terms, an account policy with two layers, keys given), in the same run,
 * end to end as processes, each command's wall time, CPU time and peak RSS read by /usr/bin/time (and the
 * load average as ours finished: the wall-time ratio on a shared machine depends on it). Both engines' files are compared
 * value by value (oasislmf 2.5.8 leaves items, coverages and fm_* in its binary forms: read back with its
 * bintocsv), so a ratio is only printed for outputs that agree.
 *
 * Sizes: CATINTEL_BENCH_OED_SIZES (default "10000,100000,1000000"); the referee runs up to
 * CATINTEL_BENCH_OED_REFEREE_MAX locations (default 1000000). oasislmf comes from the project's .venv
 * (OASISLMF_VENV for another); without it our times are printed and the referee reported as skipped.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { emit } from './report.js';
import { writeSyntheticOed } from './synthetic-oed.js';

const OASISLMF_VERSION = '2.5.8';
const FILES = [
  'items',
  'coverages',
  'fm_programme',
  'fm_profile',
  'fm_policytc',
  'fm_xref',
  'gul_summary_map',
  'fm_summary_map',
];
const BINARY = new Set(['items', 'coverages', 'fm_programme', 'fm_profile', 'fm_policytc', 'fm_xref']);

interface Timed {
  seconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  ok: boolean;
  tail: string;
}

/**
 * A command with its wall time, CPU time (user and system, its waited-for children included) and peak RSS
 * (GNU time's %U, %S and %M). On a shared machine the wall time depends on the load; the CPU time much less.
 */
export function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Timed {
  const t0 = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '@@rss %M @@cpu %U %S', cmd, ...args], {
    env,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const seconds = (performance.now() - t0) / 1000;
  const rss = /@@rss (\d+)/.exec(r.stderr ?? '');
  const cpu = /@@cpu ([\d.]+) ([\d.]+)/.exec(r.stderr ?? '');
  return {
    seconds,
    cpuSeconds: cpu ? Math.round((Number(cpu[1]) + Number(cpu[2])) * 100) / 100 : NaN,
    peakRssMb: rss ? Math.round(Number(rss[1]) / 102.4) / 10 : NaN,
    ok: r.status === 0,
    tail: `${r.stderr ?? ''}${r.stdout ?? ''}`.slice(-2000),
  };
}

function refereeBin(): string | { skipped: string } {
  const bin = path.join(path.resolve(process.env.OASISLMF_VENV ?? '.venv'), 'bin');
  if (!fs.existsSync(path.join(bin, 'oasislmf')))
    return { skipped: `no oasislmf in the venv (make conformance-oasislmf installs oasislmf ${OASISLMF_VERSION})` };
  const v = spawnSync(
    path.join(bin, 'python'),
    ['-c', 'import importlib.metadata as m; print(m.version("oasislmf"))'],
    { encoding: 'utf8' },
  );
  if (v.stdout.trim() !== OASISLMF_VERSION)
    return { skipped: `oasislmf ${v.stdout.trim() || '?'} in the venv, not ${OASISLMF_VERSION}` };
  return bin;
}

/**
 * The first difference between two CSVs of the same table, or undefined: columns matched by name (Oasis's
 * column order in fm_summary_map varies with the portfolio), values equal as numbers or as text.
 */
function firstDifference(ours: string, theirs: string): string | undefined {
  const a = fs.readFileSync(ours, 'utf8').trimEnd().split('\n');
  const b = fs.readFileSync(theirs, 'utf8').trimEnd().split('\n');
  const ha = a[0].split(',');
  const hb = b[0].split(',');
  const missing = hb.filter((c) => !ha.includes(c)).concat(ha.filter((c) => !hb.includes(c)));
  if (missing.length) return `columns ${missing.join(', ')} in one file only (${a[0]} vs ${b[0]})`;
  if (a.length !== b.length) return `${a.length - 1} rows vs ${b.length - 1}`;
  const at = hb.map((c) => ha.indexOf(c));
  const inOrder = at.every((j, k) => j === k);
  for (let i = 1; i < a.length; i++) {
    if (inOrder && a[i] === b[i]) continue;
    const x = a[i].split(',');
    const y = b[i].split(',');
    const same =
      x.length === y.length &&
      y.every((w, k) => {
        const v = x[at[k]];
        return (
          v === w ||
          (v !== '' && w !== '' && Math.abs(Number(v) - Number(w)) <= 1e-6 * Math.max(1, Math.abs(Number(v))))
        );
      });
    if (!same) return `row ${i}: ${a[i]} vs ${b[i]}`;
  }
  return undefined;
}

export async function benchOasisFiles(): Promise<void> {
  const sizes = (process.env.CATINTEL_BENCH_OED_SIZES ?? '10000,100000,1000000').split(',').map(Number);
  const refereeMax = Number(process.env.CATINTEL_BENCH_OED_REFEREE_MAX ?? 1_000_000);
  const ref = refereeBin();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-bench-oed-'));
  try {
    for (const n of sizes) {
      const dir = path.join(tmp, String(n));
      const book = writeSyntheticOed(dir, n, 20261128);
      const ours = path.join(dir, 'ours');
      const cat = timed(process.execPath, [
        'bin/catintel',
        '--quiet',
        'oasis',
        'files',
        '--oed-location',
        book.location,
        '--oed-account',
        book.account,
        '--keys',
        book.keys,
        '--out',
        ours,
      ]);
      if (!cat.ok) throw new Error(`catintel oasis files failed on ${n} locations: ${cat.tail}`);
      const m: Record<string, unknown> = {
        name: 'oasis_files.synthetic',
        n,
        seconds: Math.round(cat.seconds * 1000) / 1000,
        cpu_seconds: cat.cpuSeconds,
        per_second: Math.round(n / cat.seconds),
        peak_rss_mb: cat.peakRssMb,
        load_average: Math.round(os.loadavg()[0] * 10) / 10,
      };
      if (typeof ref === 'string' && n <= refereeMax) {
        const theirs = path.join(dir, 'oasislmf');
        const o = timed(
          path.join(ref, 'oasislmf'),
          [
            'model',
            'generate-oasis-files',
            '-x',
            book.location,
            '-y',
            book.account,
            '-z',
            book.keys,
            '-o',
            theirs,
            '--check-oed',
            'false',
          ],
          { ...process.env, PATH: `${ref}:${process.env.PATH}` },
        );
        if (!o.ok) {
          m.referee = `oasislmf ${OASISLMF_VERSION} failed: ${o.tail.split('\n').filter(Boolean).slice(-2).join(' | ')}`;
        } else {
          for (const f of BINARY)
            spawnSync(path.join(ref, 'bintocsv'), [
              f,
              '-i',
              path.join(theirs, `${f}.bin`),
              '-o',
              path.join(theirs, `${f}.csv`),
            ]);
          const differences = FILES.map((f) => [
            f,
            firstDifference(path.join(ours, `${f}.csv`), path.join(theirs, `${f}.csv`)),
          ]).filter(([, d]) => d);
          m.referee = `oasislmf ${OASISLMF_VERSION} model generate-oasis-files`;
          m.referee_seconds = Math.round(o.seconds * 1000) / 1000;
          m.referee_cpu_seconds = o.cpuSeconds;
          m.referee_peak_rss_mb = o.peakRssMb;
          m.files_agree = differences.length === 0;
          if (differences.length > 0) m.differences = Object.fromEntries(differences);
          else {
            m.ratio = Math.round((o.seconds / cat.seconds) * 10) / 10;
            m.ratio_cpu = Math.round((o.cpuSeconds / cat.cpuSeconds) * 10) / 10;
          }
        }
      } else {
        m.referee = typeof ref === 'string' ? `skipped above ${refereeMax} locations` : `skipped: ${ref.skipped}`;
      }
      emit(m as never);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
