/**
 * The README's "Usage by example" runs as written from a fresh clone (issue 28, items 15 and 16).
 *
 * A fresh copy of the repository (the files git tracks) goes in a temporary folder with the public data
 * folder beside it as `../shared/data`, and the build (dist/, node_modules/) linked in, as after `make run`.
 * The server starts as `make run` starts it: the clock pinned at data/seed/as-of.txt, `db seed`, `serve`.
 * Then every ```bash block of the section runs in bash from the copy's root with no CATINTEL_NOW, line by
 * line, and each line must exit 0, or the code its comment names (`# exit 3: ...`). Lines that need the
 * network or run until interrupted are skipped below, each with its reason; the curl lines go to the
 * server's own port instead of 8080, so the test never collides with a real `make run`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './helpers/cli.js';
import { REPO_ROOT, SHARED_DATA } from './helpers/paths.js';

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

/** The runnable lines of every ```bash block under "## Usage by example". */
function readmeExamples(readme: string): Example[] {
  const start = readme.indexOf('## Usage by example');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const blocks = [...section.matchAll(/^```bash\n([\s\S]*?)^```$/gm)].map((m) => m[1]);
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
    fs.cpSync(REPO_ROOT, to, { recursive: true, filter: (src) => !skip.has(path.basename(src)) && !/\.duckdb/.test(src) });
  }
  // What `make run` (npm ci, tsc) adds to a clone.
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(to, 'node_modules'));
  fs.symlinkSync(path.join(REPO_ROOT, 'dist'), path.join(to, 'dist'));
}

/** `make run`: seed at the snapshot's instant, then serve on a free port; resolves with the port. */
async function makeRun(project: string): Promise<{ server: ChildProcess; port: number }> {
  const env = { ...process.env, CATINTEL_NOW: fs.readFileSync(path.join(project, 'data', 'seed', 'as-of.txt'), 'utf8').trim() };
  const bin = path.join(project, 'bin', 'catintel');
  const seed = spawnSync(process.execPath, [bin, '--db', 'catintel.duckdb', '--quiet', 'db', 'seed'], { cwd: project, env, encoding: 'utf8' });
  if (seed.status !== 0) throw new Error(`db seed: ${seed.stderr}`);
  const server = spawn(process.execPath, [bin, '--db', 'catintel.duckdb', 'serve', '--port', '0', '--access-log', 'off'], { cwd: project, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
function runBlock(project: string, examples: Example[], port: number): void {
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
  spawnSync('bash', ['-c', script], { cwd: project, env, encoding: 'utf8', timeout: 240_000 });
  examples.forEach((e, i) => {
    const read = (ext: string) => (fs.existsSync(path.join(outDir, `${i}.${ext}`)) ? fs.readFileSync(path.join(outDir, `${i}.${ext}`), 'utf8') : '');
    e.rc = read('rc') === '' ? undefined : Number(read('rc'));
    e.stdout = read('out');
    e.stderr = read('err');
  });
}

const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const examples = readmeExamples(readme);
const root = tempDir('catintel-readme-');
const project = path.join(root, 'catintel');
let server: ChildProcess | undefined;

beforeAll(async () => {
  copyRepository(project);
  fs.mkdirSync(path.join(root, 'shared'));
  fs.symlinkSync(SHARED_DATA, path.join(root, 'shared', 'data')); // "the public data folder beside the project"
  const started = await makeRun(project);
  server = started.server;
  for (const block of new Set(examples.map((e) => e.block))) runBlock(project, examples.filter((e) => e.block === block), started.port);
}, 300_000);

afterAll(() => {
  server?.kill('SIGTERM');
  fs.rmSync(root, { recursive: true, force: true });
});

const find = (prefix: string) => examples.find((e) => e.line.startsWith(prefix))!;

describe('README "Usage by example", as written, from a fresh copy beside make run', () => {
  it('finds the runnable examples, and skips only those that need the network or run until interrupted', () => {
    expect(examples.filter((e) => !e.skipped).length).toBeGreaterThan(40);
    expect(examples.filter((e) => e.skipped).map((e) => `${e.line.split('#')[0].trim()} (${e.skipped})`)).toEqual([
      'catintel ingest (reads every feed online (network))',
      'catintel ingest nws-alerts --watch 300 (ingests until interrupted (and online))',
      'catintel serve --port 8080 --host 0.0.0.0 --trust-proxy 1 --ingest-every 300 (a second server: make run already serves on 8080)',
      'catintel events watch (follows the stream until interrupted)',
      "curl -N 'localhost:8080/api/v1/events/stream?event_type=earthquake' (follows the stream until interrupted)",
    ]);
  });

  it('runs every example with the exit code it documents (files it names exist in a fresh clone)', () => {
    expect(examples.some((e) => !e.skipped && e.rc !== undefined)).toBe(true);
    const wrong = examples.filter((e) => !e.skipped && e.rc !== e.expected).map((e) => ({ line: e.line, rc: e.rc, expected: e.expected, stderr: e.stderr!.slice(0, 400) }));
    expect(wrong).toEqual([]);
  });

  it('writes what the examples say they write', () => {
    expect(JSON.parse(fs.readFileSync(path.join(project, 'rings.geojson'), 'utf8')).features.length).toBeGreaterThan(0);
    expect(fs.existsSync(path.join(project, 'scores', 'manifest.json'))).toBe(true);
    expect(fs.existsSync(path.join(project, 'oasis', 'keys.csv'))).toBe(true);
    expect(fs.readFileSync(path.join(project, 'ep.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('the trigger walk-through, from a CLI without CATINTEL_NOW beside make run, sees the snapshot: Ian triggers Fort Myers', () => {
    const evaluate = find('catintel trigger evaluate');
    expect(evaluate.stdout).toMatch(/^2022-09-29T03:32:09Z: 1 trigger\(s\) against [1-9]\d* live event\(s\)/);
    expect(evaluate.stdout).toContain('TRIGGERED: Fort Myers 100 kt');
    expect(evaluate.stderr).toContain('clock: pinned at 2022-09-29T03:32:09Z');
    expect(find('catintel trigger list').stdout).toMatch(/Fort Myers 100 kt .* triggered/);
    expect(find('catintel trigger history').stdout).toMatch(/al092022 .* clear -> triggered/);
    expect(find('catintel trigger verify').stdout).toMatch(/1 agree, 0 disagree/);
  });

  it('saved locations and the portfolio beside make run see Ian too', () => {
    expect(find('catintel locations exposure').stdout).toContain('Hurricane Ian (AL09 2022)');
    expect(find('catintel portfolio exposure').stdout).toContain('Hurricane Ian');
  });
});
