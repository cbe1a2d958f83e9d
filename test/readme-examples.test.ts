/**
 * The examples run as written from a fresh clone: the README's, and the walk-through of every command in
 * docs/usage.md. An example is a line of a ```bash block (```sh blocks show, they are not run).
 *
 * For each page, a fresh copy of the repository (the files git tracks) goes in a temporary folder with the
 * public data folder beside it as `../shared/data`, and the build (dist/, node_modules/) linked in, as
 * after `make run`. The server starts as `make run` starts it: the clock pinned at data/seed/as-of.txt, the
 * seeded store (`db seed` at that instant: the copy the run built once, test/helpers/shared-stores.ts),
 * `serve`. Then the page's blocks run in bash from the copy's root with no CATINTEL_NOW, line by line, and
 * each line must exit 0, or the code its comment names (`# exit 3: ...`). Lines that need the network or
 * run until interrupted are skipped below, each with its reason; the curl lines go to the server's own
 * port instead of 8080, so the test never collides with a real `make run`. Each page has its own copy and
 * server: the README's examples and the walk-through both create a trigger and a portfolio.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { REPO_ROOT, SHARED_DATA } from './helpers/paths.js';
import { seedStore } from './helpers/store.js';

/** Examples that cannot run to an end in a test, and why. */
const SKIPPED: { pattern: RegExp; reason: string }[] = [
  { pattern: /^catintel ingest\s*(#|$)/, reason: 'reads every feed online (network)' },
  { pattern: /--watch\b/, reason: 'ingests until interrupted (and online)' },
  { pattern: /^catintel serve\b/, reason: 'a second server: make run already serves on 8080' },
  { pattern: /^catintel events watch\b/, reason: 'follows the stream until interrupted' },
  { pattern: /^curl -N\b/, reason: 'follows the stream until interrupted' },
];

interface Example {
  block: number;
  line: string;
  expected: number;
  skipped?: string;
  rc?: number;
  stdout?: string;
  stderr?: string;
}

/** The runnable lines of every ```bash block of a page. */
function examplesOf(page: string): Example[] {
  const blocks = [...page.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
  return blocks.flatMap((text, block) =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => ({
        block,
        line,
        expected: Number(/#\s+exit (\d)\b/.exec(line)?.[1] ?? 0),
        skipped: SKIPPED.find((s) => s.pattern.test(line))?.reason,
      })),
  );
}

/** The files of a fresh clone: what git tracks (or, outside a git checkout, the tree without builds). */
function copyRepository(to: string): void {
  const listed = spawnSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' });
  if (listed.status === 0) {
    for (const file of listed.stdout.split('\0').filter(Boolean)) {
      const from = path.join(REPO_ROOT, file);
      if (!fs.existsSync(from)) continue; // deleted in the working tree, not yet committed
      fs.mkdirSync(path.dirname(path.join(to, file)), { recursive: true });
      fs.cpSync(from, path.join(to, file), { verbatimSymlinks: true });
    }
  } else {
    const skip = new Set(['node_modules', 'dist', '.git']);
    fs.cpSync(REPO_ROOT, to, {
      recursive: true,
      filter: (src) => !skip.has(path.basename(src)) && !/\.duckdb/.test(src),
    });
  }
  // What `make run` (npm ci, tsc) adds to a clone. dist/ is copied, not linked: the CLI finds its project
  // folder (models/, data/) from where its code lies, and a link would lead it back to this repository.
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(to, 'node_modules'));
  fs.cpSync(path.join(REPO_ROOT, 'dist'), path.join(to, 'dist'), { recursive: true });
}

/** `make run`: the store seeded at the snapshot's instant, then served on a free port; resolves with the port. */
async function makeRun(project: string): Promise<{ server: ChildProcess; port: number }> {
  const env = {
    ...process.env,
    CATINTEL_NOW: fs.readFileSync(path.join(project, 'data', 'seed', 'as-of.txt'), 'utf8').trim(),
  };
  const bin = path.join(project, 'bin', 'catintel');
  fs.copyFileSync(await seedStore(), path.join(project, 'catintel.duckdb')); // what `db seed` writes at that instant
  const server = spawn(
    process.execPath,
    [bin, '--db', 'catintel.duckdb', 'serve', '--port', '0', '--access-log', 'off'],
    { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  server.stderr!.on('data', (d: Buffer) => (err += d));
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = / at http:\/\/[^\s/]+:(\d+)\/api\/v1 /.exec(out);
      if (m) resolve(Number(m[1]));
    });
    server.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  return { server, port };
}

/** Runs one block in bash from the project root, each line's output and exit code kept apart. */
async function runBlock(project: string, examples: Example[], port: number): Promise<void> {
  const outDir = fs.mkdtempSync(path.join(path.dirname(project), 'out-'));
  const script = examples
    .map((e, i) => {
      const line = e.skipped ? `: skipped` : e.line.replaceAll('localhost:8080', `localhost:${port}`);
      return `{ ${line}\n} >"${outDir}/${i}.out" 2>"${outDir}/${i}.err"; echo $? >"${outDir}/${i}.rc"`;
    })
    .join('\n');
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.CATINTEL_NOW; // the user's shell: the real clock, unless the server's applies
  delete env.CATINTEL_DB;
  // Not spawnSync: the two pages run side by side.
  const bash = spawn('bash', ['-c', script], { cwd: project, env, stdio: 'ignore' });
  // Each page builds a 100-year hurricane model package (about a minute of CPU, both pages at once).
  const timer = setTimeout(() => bash.kill('SIGKILL'), 540_000);
  await new Promise((resolve) => bash.once('exit', resolve));
  clearTimeout(timer);
  examples.forEach((e, i) => {
    const read = (ext: string) =>
      fs.existsSync(path.join(outDir, `${i}.${ext}`)) ? fs.readFileSync(path.join(outDir, `${i}.${ext}`), 'utf8') : '';
    e.rc = read('rc') === '' ? undefined : Number(read('rc'));
    e.stdout = read('out');
    e.stderr = read('err');
  });
}

interface PageRun {
  examples: Example[];
  project: string;
}

/** A page's examples, run from a fresh copy beside its own `make run`. */
async function runPage(page: string): Promise<PageRun> {
  const examples = examplesOf(fs.readFileSync(path.join(REPO_ROOT, page), 'utf8'));
  const root = tempDir('catintel-examples-');
  const project = path.join(root, 'catintel');
  copyRepository(project);
  fs.mkdirSync(path.join(root, 'shared'));
  fs.symlinkSync(SHARED_DATA, path.join(root, 'shared', 'data')); // "the public data folder beside the project"
  const { server, port } = await makeRun(project);
  try {
    for (const block of new Set(examples.map((e) => e.block)))
      await runBlock(
        project,
        examples.filter((e) => e.block === block),
        port,
      );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => (server.exitCode === null ? server.once('exit', resolve) : resolve(null)));
  }
  return { examples, project };
}

const roots: string[] = [];
let readme: PageRun;
let usage: PageRun;

beforeAll(async () => {
  [readme, usage] = await Promise.all([runPage('README.md'), runPage('docs/usage.md')]);
  roots.push(path.dirname(readme.project), path.dirname(usage.project));
}, 600_000);

afterAll(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

const find = (run: PageRun, prefix: string) => run.examples.find((e) => e.line.startsWith(prefix))!;

/** Lines that did not end with the exit code they document. */
const wrongExits = (run: PageRun) =>
  run.examples
    .filter((e) => !e.skipped && e.rc !== e.expected)
    .map((e) => ({ line: e.line, rc: e.rc, expected: e.expected, stderr: e.stderr!.slice(0, 400) }));

describe('README examples, as written, from a fresh copy beside make run', () => {
  it('are a dozen or so, every one runnable here', () => {
    expect(readme.examples.length).toBeGreaterThanOrEqual(12);
    expect(readme.examples.filter((e) => e.skipped)).toEqual([]);
  });

  it('each ends with the exit code it documents (files it names exist in a fresh clone)', () => {
    expect(readme.examples.every((e) => e.rc !== undefined)).toBe(true);
    expect(wrongExits(readme)).toEqual([]);
  });

  it('print what they say: Ian, its rings, scores, the trigger it breaches, the exposed book and its EP curve', () => {
    const r = (prefix: string) => find(readme, prefix).stdout!;
    expect(r('catintel events live')).toMatch(/Hurricane Ian/);
    expect(r('catintel events show AL092022')).toMatch(/Hurricane Ian/);
    expect(
      JSON.parse(fs.readFileSync(path.join(readme.project, 'rings.geojson'), 'utf8')).features.length,
    ).toBeGreaterThan(0);
    expect(r('catintel events nearby')).toMatch(/Hurricane Ian/);
    expect(r('catintel score point')).toMatch(/hurricane_wind/);
    expect(fs.existsSync(path.join(readme.project, 'oasis', 'keys.csv'))).toBe(true);
    const evaluate = find(readme, 'catintel trigger evaluate');
    expect(evaluate.stdout).toMatch(/^2022-09-29T03:32:09Z: 1 trigger\(s\) against [1-9]\d* live event\(s\)/);
    expect(evaluate.stdout).toContain('TRIGGERED: Fort Myers 100 kt');
    expect(evaluate.stderr).toContain('clock: pinned at 2022-09-29T03:32:09Z');
    expect(r('catintel trigger history')).toMatch(/al092022 .* clear -> triggered/);
    expect(r('catintel portfolio exposure')).toContain('Hurricane Ian');
    expect(r('catintel portfolio ep-curve')).toMatch(/AAL/);
    expect(r('curl -s')).toMatch(/^"/m); // event titles, one a line
  });
});

describe('docs/usage.md "Usage by example", as written, from a fresh copy beside make run', () => {
  it('finds the runnable examples, and skips only those that need the network or run until interrupted', () => {
    expect(usage.examples.filter((e) => !e.skipped).length).toBeGreaterThan(40);
    expect(usage.examples.filter((e) => e.skipped).map((e) => `${e.line.split('#')[0].trim()} (${e.skipped})`)).toEqual(
      [
        'catintel ingest (reads every feed online (network))',
        'catintel ingest nws-alerts --watch 300 (ingests until interrupted (and online))',
        'catintel serve --port 8080 --host 0.0.0.0 --trust-proxy 1 --ingest-every 300 (a second server: make run already serves on 8080)',
        'catintel events watch (follows the stream until interrupted)',
        "curl -N 'localhost:8080/api/v1/events/stream?event_type=earthquake' (follows the stream until interrupted)",
      ],
    );
  });

  it('runs every example with the exit code it documents (files it names exist in a fresh clone)', () => {
    expect(usage.examples.some((e) => !e.skipped && e.rc !== undefined)).toBe(true);
    expect(wrongExits(usage)).toEqual([]);
  });

  it('writes what the examples say they write', () => {
    expect(
      JSON.parse(fs.readFileSync(path.join(usage.project, 'rings.geojson'), 'utf8')).features.length,
    ).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(usage.project, 'scores', 'manifest.json'))).toBe(true);
    expect(fs.existsSync(path.join(usage.project, 'oasis', 'keys.csv'))).toBe(true);
    expect(fs.readFileSync(path.join(usage.project, 'ep.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('the trigger walk-through, from a CLI without CATINTEL_NOW beside make run, sees the snapshot: Ian triggers Fort Myers', () => {
    const evaluate = find(usage, 'catintel trigger evaluate');
    expect(evaluate.stdout).toMatch(/^2022-09-29T03:32:09Z: 1 trigger\(s\) against [1-9]\d* live event\(s\)/);
    expect(evaluate.stdout).toContain('TRIGGERED: Fort Myers 100 kt');
    expect(evaluate.stderr).toContain('clock: pinned at 2022-09-29T03:32:09Z');
    expect(find(usage, 'catintel trigger list').stdout).toMatch(/Fort Myers 100 kt .* triggered/);
    expect(find(usage, 'catintel trigger history').stdout).toMatch(/al092022 .* clear -> triggered/);
    expect(find(usage, 'catintel trigger verify').stdout).toMatch(/1 agree, 0 disagree/);
  });

  it('saved locations and the portfolio beside make run see Ian too', () => {
    expect(find(usage, 'catintel locations exposure').stdout).toContain('Hurricane Ian (AL09 2022)');
    expect(find(usage, 'catintel portfolio exposure').stdout).toContain('Hurricane Ian');
  });
});
