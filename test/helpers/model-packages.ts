/**
 * A small model package (hurricane, or earthquake) for the tests that need one (the package's own tests,
 * EP curves by CLI and HTTP), built once and shared: under models/.test/ in the project (gitignored), in a
 * folder named by the model, the years and a hash of what the package is made from (the model's source
 * files, the years and the seed), so a run reuses the last run's package until the model's code changes,
 * and builds a new one when it does. Test files running side by side take a lock: one builds, the others
 * wait for its manifest. Tests only read a package: anything they write goes to a folder of their own.
 *
 * The build is the compiled CLI's (bin/catintel, as `make test` builds it before the suite), in a process
 * of its own: its footprints run on every core (threads need the compiled worker), where the in-process CLI
 * of the TypeScript sources runs one thread while the file waiting for it holds the other core idle. It goes
 * through the run's model package cache (test/helpers/model-cache.ts), which the README walk-through's
 * `catintel model build hurricane --years 100` (the same package) then copies instead of building twice.
 * A dist/ older than the model's sources is refused, naming the command that rebuilds it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
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

/** The compiled counterpart of a source file under src/ (tsconfig.json compiles src/ into dist/src/). */
const compiledOf = (file: string) => path.join(REPO_ROOT, 'dist', file.replace(/\.ts$/, '.js'));

/** Refuses a dist/ that misses or predates a source of the model: the package would be the old code's. */
function requireCompiled(model: TestModel): void {
  for (const file of sourcesOf(model).flatMap(filesUnder)) {
    const compiled = fs.statSync(compiledOf(file), { throwIfNoEntry: false });
    if (!compiled || compiled.mtimeMs < fs.statSync(path.join(REPO_ROOT, file)).mtimeMs)
      throw new Error(
        `the test ${model} package is built by the compiled CLI, and dist/ ${compiled ? 'predates' : 'lacks'} ${file}: run \`npx tsc -p tsconfig.json\` (or make build) first`,
      );
  }
}

/** Runs the compiled CLI; resolves with its exit code and stderr. */
function runCompiled(argv: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'catintel'), ...argv], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

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
    requireCompiled(model);
    const r = await runCompiled([
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
    ]);
    if (r.code !== 0) throw new Error(`the test ${model} package could not be built: ${r.stderr}`);
    return models;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
