/**
 * `make test-cluster`: bulk scoring on `catintel worker` processes through a throwaway PostgreSQL
 * (docs/scale-out.md). Real processes on loopback: the compiled CLI as submitter and workers, a real
 * PostgreSQL from initdb, the HIFLD hospitals file (a real US CSV with a BOM and quoted fields holding
 * commas) with bad rows, a blank line and a quoted line break put in at several places, so that errors.csv
 * and the row numbers cross chunk boundaries. Every output must equal a single-node `score` byte for byte.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../src/cluster/throwaway-postgres.js';
import { tempDir } from '../helpers/cli.js';
import { BIN } from '../helpers/kill.js';
import { sharedData } from '../helpers/paths.js';

const HOSPITALS = sharedData('infrastructure/hifld_hospitals.csv');

interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Every process a test started, so that one a failed assertion left running is stopped at the end. */
const started = new Set<ReturnType<typeof spawn>>();

function catintel(argv: string[]): { child: ReturnType<typeof spawn>; done: Promise<Ran> } {
  const child = spawn(process.execPath, [BIN, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  started.add(child);
  child.on('exit', () => started.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<Ran>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/** Every file of a bulk output directory, manifest.json without the two fields that name the run itself. */
function outputs(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of fs.readdirSync(dir).sort()) {
    const text = fs.readFileSync(path.join(dir, name), 'utf8');
    if (name !== 'manifest.json') files[name] = text;
    else {
      const { run: _run, completed_at: _at, ...rest } = JSON.parse(text);
      files[name] = JSON.stringify(rest);
    }
  }
  return files;
}

/** The hospitals file with bad rows spread through it: `copies` times its data rows. */
function portfolio(file: string, copies: number): void {
  const [header, ...rows] = fs.readFileSync(HOSPITALS, 'utf8').split(/\r?\n/);
  const data = rows.filter(Boolean);
  const all: string[] = [];
  for (let c = 0; c < copies; c++) all.push(...data);
  const width = header.split(',').length;
  const filler = (n: number) => new Array(n).fill('x');
  const at = (f: number) => Math.floor(all.length * f);
  // From the end backwards, so the earlier positions still hold.
  const bad: [number, string][] = [
    [at(0.9), ['-80.1', 'abc', ...filler(width - 2)].join(',')], // X,Y then junk: latitude column is "x"
    [at(0.74), 'short,row'],
    [at(0.51), ''],
    [at(0.5), `-80.19,25.77,1,Q1,"A NAME WITH A LINE\nBREAK",${filler(width - 5).join(',')}`],
    [at(0.26), ['1', '2', ...filler(width - 4), '95.5', '-80.1'].join(',')],
    [at(0.1), 'short,row,again'],
  ];
  for (const [k, line] of bad) all.splice(k, 0, line);
  fs.writeFileSync(file, [header, ...all].join('\n') + '\n');
}

let db: ThrowawayPostgres;
let dir: string;
let input: string;
let big: string;
let single: Record<string, string>;

beforeAll(async () => {
  db = await startThrowawayPostgres();
  dir = tempDir('catintel-cluster-');
  input = path.join(dir, 'hospitals.csv');
  portfolio(input, 1);
  big = path.join(dir, 'hospitals-x8.csv');
  portfolio(big, 8);
  const ran = await catintel(['--quiet', 'score', '--input', input, '--out', path.join(dir, 'single')]).done;
  expect(ran.stderr).toBe('');
  expect(ran.code).toBe(0);
  single = outputs(path.join(dir, 'single'));
}, 120_000);

afterAll(async () => {
  for (const child of started) child.kill('SIGKILL');
  await db?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a throwaway PostgreSQL', () => {
  it('starts on a loopback port, answers, and stops leaving nothing behind', async () => {
    const other = await startThrowawayPostgres();
    try {
      const client = new pg.Client({ connectionString: other.url });
      await client.connect();
      const { rows } = await client.query<{ v: string }>('SELECT current_setting($1) AS v', ['server_version']);
      await client.end();
      expect(rows[0].v).toMatch(/^\d+/);
      expect(other.url).toBe(`postgres://catintel@127.0.0.1:${other.port}/postgres`);
    } finally {
      await other.close(); // a failed assertion must not leave a server running
    }
    expect(fs.existsSync(other.dir)).toBe(false);
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect(other.port, '127.0.0.1');
      s.once('connect', () => (s.destroy(), resolve(false)));
      s.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
  }, 60_000);
});

describe('catintel score --queue with two workers', () => {
  it('writes what a single-node run writes, byte for byte, errors.csv crossing the chunks', async () => {
    expect(single['errors.csv'].trim().split('\n').length).toBeGreaterThan(6); // header, 5 bad rows, rows outside
    const out = path.join(dir, 'queued');
    const workers = [0, 1].map(() => catintel(['--json', 'worker', '--queue', db.url, '--idle-exit', '3']));
    const ran = await catintel(['--quiet', 'score', '--input', input, '--out', out, '--queue', db.url, '--chunks', '6'])
      .done;
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(outputs(out)).toEqual(single);
    const finished = await Promise.all(workers.map((w) => w.done));
    expect(finished.map((w) => w.code)).toEqual([0, 0]);
    const chunks = finished.map((w) => JSON.parse(w.stdout).chunks as number);
    expect(chunks[0] + chunks[1]).toBe(6);
  }, 180_000);

  it('writes scores.ndjson as a single-node --format json run does', async () => {
    const alone = path.join(dir, 'json-single');
    const queued = path.join(dir, 'json-queued');
    expect((await catintel(['--quiet', 'score', '--input', input, '--out', alone, '--format', 'json']).done).code).toBe(
      0,
    );
    const w = catintel(['--json', 'worker', '--queue', db.url, '--idle-exit', '3']);
    const ran = await catintel([
      '--quiet',
      'score',
      '--input',
      input,
      '--out',
      queued,
      '--format',
      'json',
      '--queue',
      db.url,
      '--chunks',
      '3',
    ]).done;
    expect(ran.stderr).toBe('');
    expect(ran.code).toBe(0);
    expect(outputs(queued)).toEqual(outputs(alone));
    expect((await w.done).code).toBe(0);
  }, 180_000);

  it('retries the chunk of a worker SIGKILLed mid-chunk on the other worker; the outputs are still identical', async () => {
    const alone = path.join(dir, 'big-single');
    expect((await catintel(['--quiet', 'score', '--input', big, '--out', alone]).done).code).toBe(0);
    const work = path.join(dir, 'work');
    fs.mkdirSync(work);
    const out = path.join(dir, 'big-queued');
    const victim = catintel(['--json', 'worker', '--queue', db.url, '--idle-exit', '30']);
    const submit = catintel([
      'score',
      '--input',
      big,
      '--out',
      out,
      '--queue',
      db.url,
      '--chunks',
      '4',
      '--work-dir',
      work,
      '--chunk-expiry',
      '3',
    ]);
    // The victim's part directory of its first chunk appears when it starts scoring; it has no manifest yet.
    const pid = victim.child.pid!;
    let partDir: string | undefined;
    for (let i = 0; i < 3000 && !partDir; i++) {
      await new Promise((r) => setTimeout(r, 20));
      for (const run of fs.readdirSync(work))
        for (const part of fs.readdirSync(path.join(work, run)))
          if (part.includes(`.${pid}-`) && !fs.existsSync(path.join(work, run, part, 'manifest.json')))
            partDir = path.join(work, run, part);
    }
    expect(partDir).toBeDefined();
    victim.child.kill('SIGKILL');
    expect((await victim.done).signal).toBe('SIGKILL');
    const rescuer = catintel(['--json', 'worker', '--queue', db.url, '--idle-exit', '5']);
    const ran = await submit.done;
    expect(ran.code).toBe(0);
    expect(outputs(out)).toEqual(outputs(alone));
    const rescued = await rescuer.done;
    expect(rescued.code).toBe(0);
    expect(JSON.parse(rescued.stdout).chunks).toBeGreaterThanOrEqual(1);
    // The killed attempt's part was never registered: every registered part is another process's.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query<{ dir: string }>(
      'SELECT dir FROM catintel_score_parts WHERE dir LIKE $1 ORDER BY chunk',
      [`${work}/%`],
    );
    await client.end();
    expect(rows).toHaveLength(4);
    expect(rows.filter((r) => r.dir.includes(`.${pid}-`))).toEqual([]);
    expect(fs.readdirSync(work)).toEqual([]); // the run's work directory is gone
  }, 300_000);
});

describe('catintel worker', () => {
  it('exits 0 on SIGTERM, saying it was stopped by a signal', async () => {
    const w = catintel(['--json', 'worker', '--queue', db.url]);
    await new Promise((r) => setTimeout(r, 2500)); // connected and polling an empty queue
    w.child.kill('SIGTERM');
    const ran = await w.done;
    expect(ran.code).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({ chunks: 0, failed: 0, stopped_by: 'signal' });
  }, 60_000);
});

describe('catintel score --queue refusals', () => {
  it('names a URL that is not PostgreSQL in one line, exit 2, and makes nothing', async () => {
    const out = path.join(dir, 'refused-url');
    const ran = await catintel(['score', '--input', input, '--out', out, '--queue', 'http://127.0.0.1/x']).done;
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe(
      'catintel: queue: "http://127.0.0.1/x" is not a PostgreSQL URL (http:); give postgres://USER@HOST:PORT/DATABASE [invalid_parameter]\n',
    );
    expect(fs.existsSync(out)).toBe(false);
  });

  it('names a PostgreSQL it cannot reach in one line (password hidden), non-zero exit, and makes nothing', async () => {
    const out = path.join(dir, 'refused-db');
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const url = `postgres://catintel:secret@127.0.0.1:${port}/postgres`;
    const ran = await catintel(['score', '--input', input, '--out', out, '--queue', url]).done;
    expect(ran.code).toBe(1);
    expect(ran.stderr).toBe(
      `catintel: --queue postgres://catintel:***@127.0.0.1:${port}/postgres: cannot use PostgreSQL: connection refused (is PostgreSQL running there?); start PostgreSQL there or give the URL of one that runs [unavailable]\n`,
    );
    expect(fs.existsSync(out)).toBe(false);
  });

  it('refuses a format whose parts do not assemble by concatenation, naming the ones that do', async () => {
    const out = path.join(dir, 'refused-format');
    const ran = await catintel(['score', '--input', input, '--out', out, '--queue', db.url, '--format', 'parquet'])
      .done;
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe(
      'catintel: format: --format parquet does not work with --queue yet; give csv or json, or score parquet without --queue [invalid_parameter]\n',
    );
    expect(fs.existsSync(out)).toBe(false);
  });
});
