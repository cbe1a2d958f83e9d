/**
 * A small model package (hurricane, or earthquake) for the tests that need one (the package's own tests,
 * EP curves by CLI and HTTP), built once and shared: under models/.test/ in the project (gitignored), in a
 * folder named by the model, the years and a hash of what the package is made from (the model's source
 * files, the years and the seed), so a run reuses the last run's package until the model's code changes,
 * and builds a new one (about 40 s for 100 years) when it does. Test files running side by side take a
 * lock: one builds, the others wait for its manifest. Tests only read a package: anything they write goes
 * to a folder of their own.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { cli } from './cli.js';
import { REPO_ROOT, SHARED_DATA } from './paths.js';

export const TEST_PACKAGE_YEARS = 100;
export const TEST_PACKAGE_SEED = 1;
/**
 * Earthquakes that damage a city are rare: 100 years leave the Los Angeles AAL to a handful of events, so
 * the earthquake tests that check it share a longer package.
 */
export const EARTHQUAKE_TEST_PACKAGE_YEARS = 400;

type TestModel = 'hurricane' | 'earthquake';

/** The sources a built package depends on: the model and the shared code it builds with. */
const sourcesOf = (model: TestModel) => [
  `src/models/${model}`,
  'src/models/shared',
  'src/handlers/model-build.ts',
  'src/lib/output-set.ts',
];

function filesUnder(p: string): string[] {
  const abs = path.join(REPO_ROOT, p);
  if (!fs.statSync(abs, { throwIfNoEntry: false })?.isDirectory()) return fs.existsSync(abs) ? [p] : [];
  return fs
    .readdirSync(abs, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => path.join(p, f))
    .sort();
}

function inputsKey(model: TestModel, years: number): string {
  const h = createHash('sha256').update(`${model},${years},${TEST_PACKAGE_SEED}\n`);
  for (const f of sourcesOf(model).flatMap(filesUnder)) h.update(f).update(fs.readFileSync(path.join(REPO_ROOT, f)));
  return h.digest('hex').slice(0, 16);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The models folder (for --models or CATINTEL_MODELS) holding `<model>/` (hurricane/ unless named), a
 * package of `years` years (TEST_PACKAGE_YEARS unless given) from seed TEST_PACKAGE_SEED; built on first
 * use. Each model and length has a folder of its own, so a test of one model's EP curve never sees the
 * other's package.
 */
export async function testModels(
  model: TestModel = 'hurricane',
  { years = TEST_PACKAGE_YEARS }: { years?: number } = {},
): Promise<string> {
  const root = path.join(REPO_ROOT, 'models', '.test');
  const kind = `${model}-${years}y-`;
  const models = path.join(root, `${kind}${inputsKey(model, years)}`);
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
    // Packages of earlier model code are of no further use (those of another length still are), nor are those named before the length was in the name.
    const stale = (f: string) =>
      (f.startsWith(kind) || new RegExp(`^${model}-[0-9a-f]{16}$`).test(f)) && !f.startsWith(path.basename(models));
    for (const old of fs.readdirSync(root))
      if (stale(old)) fs.rmSync(path.join(root, old), { recursive: true, force: true });
    const r = await cli([
      'model',
      'build',
      model,
      '--years',
      String(years),
      '--seed',
      String(TEST_PACKAGE_SEED),
      '--from',
      SHARED_DATA,
      '--out',
      pkg,
      '--quiet',
      // This folder is the test package's cache already, keyed by the model's own sources: a copy in the
      // build cache (keyed by the whole src tree, which the in-process CLI runs from) would never be read.
      '--no-cache',
    ]);
    if (r.code !== 0) throw new Error(`the test ${model} package could not be built: ${r.stderr}`);
    return models;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
