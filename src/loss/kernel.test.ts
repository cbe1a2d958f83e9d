import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeScaledInput } from '../../bench/oasis.js';
import { runOasis } from './run.js';

// PiWind (../shared/data/oasis_piwind) with ten samples: the outputs of a run shared between threads
// (in-process shares here: the tests run the TypeScript sources, which have no compiled worker; the
// shares and their merge are the same code) must be those of one thread, byte for byte.
const PIWIND = path.resolve('../shared/data/oasis_piwind');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-kernel-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function run(threads: number, allocRule: 0 | 1): Promise<Map<string, string>> {
  const out = path.join(tmp, `t${threads}-r${allocRule}`);
  await runOasis({
    modelDir: path.join(PIWIND, 'model_data'),
    inputDir: path.join(PIWIND, 'expected_all_outputs', 'input'),
    outDir: out,
    settingsFile: path.join(PIWIND, 'expected_all_outputs', 'output', 'analysis_settings.json'),
    allocRule,
    samples: 10,
    threads,
  });
  return filesOf(out);
}

/** Each output file's text; of the manifest, its files' rows and checksums (its run id and completion time differ per run by design). */
function filesOf(out: string): Map<string, string> {
  return new Map(
    fs.readdirSync(out).map((f) => {
      const text = fs.readFileSync(path.join(out, f), 'utf8');
      return [f, f === 'manifest.json' ? JSON.stringify(JSON.parse(text).outputs) : text];
    }),
  );
}

describe('loss kernel over several threads', () => {
  it('writes the same bytes with 1, 2 and 3 threads (blocks of events dealt in turn, merged in event order)', async () => {
    for (const rule of [1, 0] as const) {
      const one = await run(1, rule);
      expect(one.get('gul_S1_selt.csv')!.split('\n').length).toBeGreaterThan(1000);
      for (const threads of [2, 3]) {
        const many = await run(threads, rule);
        expect([...many.keys()].sort()).toEqual([...one.keys()].sort());
        for (const [file, text] of one)
          expect(many.get(file), `${file}, ${threads} threads, gul_alloc_rule ${rule}`).toBe(text);
      }
    }
  });
});

describe('loss kernel threads as the compiled CLI runs them (workers taking blocks from a shared counter)', () => {
  it('writes the same bytes on 1 and 2 threads, whichever thread ran which block', () => {
    // The compiled CLI (`make test` builds it first), so that the workers exist, on a seeded PiWind-like
    // input of 2,000 locations with ten samples: enough work that the worker, once started, takes blocks.
    const bin = path.resolve('bin', 'catintel');
    const input = path.join(tmp, 'scaled-2000');
    writeScaledInput(input, 2000, 7);
    const settings = JSON.parse(
      fs.readFileSync(path.join(PIWIND, 'expected_all_outputs', 'output', 'analysis_settings.json'), 'utf8'),
    );
    Object.assign(settings, { number_of_samples: 10, ri_output: false, rl_output: false });
    const settingsFile = path.join(tmp, 'settings-10.json');
    fs.writeFileSync(settingsFile, JSON.stringify(settings));
    const outputs = [1, 2].map((threads) => {
      const out = path.join(tmp, `cli-${threads}`);
      const r = spawnSync(
        process.execPath,
        [
          bin,
          '--quiet',
          'oasis',
          'run',
          '--model',
          path.join(PIWIND, 'model_data'),
          '--input',
          input,
          '--out',
          out,
          '--settings',
          settingsFile,
        ],
        {
          env: { ...process.env, CATINTEL_OASIS_THREADS: String(threads) },
          encoding: 'utf8',
        },
      );
      expect(r.status, r.stderr).toBe(0);
      return filesOf(out);
    });
    expect(outputs[0].get('gul_S1_selt.csv')!.split('\n').length).toBeGreaterThan(1000);
    expect([...outputs[1].keys()].sort()).toEqual([...outputs[0].keys()].sort());
    for (const [file, text] of outputs[0]) expect(outputs[1].get(file), file).toBe(text);
  });
});

// The compiled modules (`make test` builds them first): a pool's thread exists only beside compiled code.
const compiled = (file: string) => path.resolve('dist', 'src', 'loss', file);

describe('a kernel pool started before its run, which reads the damage side on its thread', () => {
  it.skipIf(!fs.existsSync(compiled('kernel-pool.js')))(
    'gives the records one thread gives, the run sent to the thread without the damage side it holds',
    async () => {
      const load = <T>(file: string) => import(pathToFileURL(compiled(file)).href) as Promise<T>;
      const { computeLosses } = await load<typeof import('./run.js')>('run.js');
      const { KernelPool } = await load<typeof import('./kernel-pool.js')>('kernel-pool.js');
      const { keptDamageModel } = await load<typeof import('./io/damage-model.js')>('io/damage-model.js');
      const { readSettings } = await load<typeof import('./settings.js')>('settings.js');
      const modelDir = path.join(PIWIND, 'model_data');
      const losses = (threads: number, pool?: InstanceType<typeof KernelPool>) =>
        computeLosses({
          modelDir,
          inputDir: path.join(PIWIND, 'expected_all_outputs', 'input'),
          settings: readSettings(path.join(PIWIND, 'expected_all_outputs', 'output', 'analysis_settings.json')),
          allocRule: 1,
          samples: 10,
          threads,
          pool,
        });
      // The pool first: this process has not read the model yet, so its thread does.
      expect(keptDamageModel(modelDir)).toBeUndefined();
      const pool = new KernelPool(1);
      let two;
      try {
        const damage = pool.damageModel(modelDir);
        two = await losses(2, pool);
        expect(keptDamageModel(modelDir)).toBe(await damage);
        // A second run on the same pool (a book's next peril) takes the same thread again.
        const again = await losses(2, pool);
        expect(again.gul).toEqual(two.gul);
      } finally {
        pool.close();
      }
      const one = await losses(1);
      expect(one.gul.length).toBeGreaterThan(100);
      for (const which of ['gul', 'il'] as const) expect(two[which], which).toEqual(one[which]);
    },
    60_000,
  );
});
