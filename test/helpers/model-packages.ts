/**
 * A small model package (hurricane, or earthquake) for the tests that need one (EP curves, by CLI and
 * HTTP), built once and shared: under models/.test/ in the project (gitignored), in a folder named by a hash of what the
 * package is made from (the model's source files, the years and the seed), so a run reuses the last
 * run's package until the model's code changes, and builds a new one (about 40 s for 100 years) when it
 * does. Test files running side by side take a lock: one builds, the others wait for its manifest.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cli } from './cli.js';
import { REPO_ROOT, SHARED_DATA } from './paths.js';

export const TEST_PACKAGE_YEARS = 100;
export const TEST_PACKAGE_SEED = 1;

type TestModel = 'hurricane' | 'earthquake';

/** The sources a built package depends on: the model and the shared code it builds with. */
const sourcesOf = (model: TestModel) => [`src/models/${model}`, 'src/models/shared', 'src/handlers/model-build.ts', 'src/lib/output-set.ts'];

function filesUnder(p: string): string[] {
  const abs = path.join(REPO_ROOT, p);
  if (!fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory()) return fs.existsSync(abs) ? [p] : [];
  return fs.readdirSync(abs, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).map((f) => path.join(p, f)).sort();
}

function inputsKey(model: TestModel): string {
  const h = createHash('sha256').update(`${model},${TEST_PACKAGE_YEARS},${TEST_PACKAGE_SEED}\n`);
  for (const f of sourcesOf(model).flatMap(filesUnder)) h.update(f).update(fs.readFileSync(path.join(REPO_ROOT, f)));
  return h.digest('hex').slice(0, 16);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The models folder (for --models or CATINTEL_MODELS) holding `<model>/` (hurricane/ unless named), a
 * package of TEST_PACKAGE_YEARS years; built on first use. Each model has a folder of its own, so a test of
 * one model's EP curve never sees the other's package.
 */
export async function testModels(model: TestModel = 'hurricane'): Promise<string> {
  const root = path.join(REPO_ROOT, 'models', '.test');
  const models = path.join(root, `${model}-${inputsKey(model)}`);
  const pkg = path.join(models, model);
  const done = () => fs.existsSync(path.join(pkg, 'manifest.json'));
  if (done()) return models;
  fs.mkdirSync(root, { recursive: true });
  const lock = `${models}.lock`;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      // Another file is building it: wait for its manifest (or take over a lock left by a killed run).
      const since = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0);
      if (done()) return models;
      if (since > 10 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      await sleep(500);
    }
  }
  try {
    if (done()) return models;
    // Packages of earlier model code are of no further use.
    for (const old of fs.readdirSync(root)) if (old.startsWith(`${model}-`) && !old.startsWith(path.basename(models))) fs.rmSync(path.join(root, old), { recursive: true, force: true });
    const r = await cli(['model', 'build', model, '--years', String(TEST_PACKAGE_YEARS), '--seed', String(TEST_PACKAGE_SEED), '--from', SHARED_DATA, '--out', pkg, '--quiet']);
    if (r.code !== 0) throw new Error(`the test ${model} package could not be built: ${r.stderr}`);
    return models;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
