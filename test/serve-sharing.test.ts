/**
 * One store, many processes (issue 9 part 1): while a real `catintel serve` owns a store, cron-style CLI
 * commands on that store (ingest, events, db info, keys) run inside the server through its owner-only
 * local channel, and print exactly what the same command prints on a store of its own, with the same exit
 * code; the server serves what they wrote at once. Storeless commands (bulk score, token issue) never meet
 * the lock. When the server is killed, the CLI opens the store itself again.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir, type CliResult } from './helpers/cli.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';

const BIN = path.join(REPO_ROOT, 'bin/catintel');
const built = fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'));
const NOW = '2022-09-29T03:32:09Z'; // all_day.geojson holds earthquakes up to this instant
const SECRET = 'a-test-secret-that-is-at-least-32-characters-long';
const env = { CATINTEL_NOW: NOW, CATINTEL_JWT_SECRET: SECRET };

interface Served {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

/** `catintel serve` as an operator starts it, from another working directory than the CLI's. */
async function serve(db: string, cwd: string): Promise<Served> {
  const child = spawn(process.execPath, [BIN, '--db', db, 'serve', '--port', '0', '--access-log', 'off'], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = / at (http:\/\/\S+)\/api\/v1 /.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  return { child, url, stderr: () => err };
}

/** What differs between two runs of one command by nature: the store's file name and the random run id. */
function comparable(r: CliResult, db: string): { code: number; stdout: string; stderr: string } {
  const norm = (s: string) =>
    s
      .split(db)
      .join('<db>')
      .replace(/"run_id": "[0-9a-f-]{36}"/g, '"run_id": "<id>"');
  return { code: r.code, stdout: norm(r.stdout), stderr: norm(r.stderr) };
}

describe.skipIf(!built)(
  'CLI commands while `catintel serve` owns the store (a real process; needs `make build`)',
  () => {
    let dir: string;
    let alone: string; // the same commands on a store of their own: what the output must be
    let served: string;
    let server: Served;
    // Relative to the CLI's working directory, not the server's: the channel must resolve it on our side.
    const feed = () => path.relative(process.cwd(), sharedData('feeds/usgs_earthquakes/all_day.geojson'));

    beforeAll(async () => {
      dir = tempDir('catintel-sharing-');
      alone = path.join(dir, 'alone.duckdb');
      served = path.join(dir, 'served.duckdb');
      fs.mkdirSync(path.join(dir, 'elsewhere'));
      server = await serve(served, path.join(dir, 'elsewhere'));
    });
    afterAll(() => {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    });

    /** Runs argv on both stores and expects the same exit code, stdout and stderr. */
    async function same(argv: string[]): Promise<CliResult> {
      const a = await cli(['--db', alone, ...argv], env);
      const s = await cli(['--db', served, ...argv], env);
      expect(comparable(s, served), argv.join(' ')).toEqual(comparable(a, alone));
      return s;
    }

    it('runs ingest, events, db info through the server with the output and exit codes of a standalone run; the server serves the new events at once', async () => {
      const before = (await (await fetch(`${server.url}/api/v1/events/live?limit=1`)).json()) as any;
      expect(before.numberMatched).toBe(0); // and now cached for a moment

      const ingested = await same(['ingest', 'usgs-earthquakes', '--from', feed()]);
      expect(ingested.code).toBe(0);
      expect(ingested.stdout).toMatch(/^usgs-earthquakes: \d+ read, [1-9]\d* new/);
      expect(ingested.stderr).toMatch(/"progress":"ingest usgs-earthquakes"/); // progress streamed back as NDJSON

      const live = await same(['--json', 'events', 'live', '--limit', '1000']);
      const matched = live.json().numberMatched;
      expect(matched).toBeGreaterThan(0);
      const after = (await (await fetch(`${server.url}/api/v1/events/live?limit=1`)).json()) as any;
      expect(after.numberMatched).toBe(matched);

      expect((await same(['--json', 'ingest', 'usgs-earthquakes', '--from', feed()])).json().runs[0].inserted).toBe(0);
      await same(['events', 'live']);
      await same(['events', 'nearby', '--lat', '38.8', '--lng', '-122.8', '--radius-km', '300']);
      await same(['db', 'info']);
      // The one difference: the server records the feed file by its absolute path (it has another working directory).
      const a = (await cli(['--db', alone, '--json', 'db', 'info'], env)).json();
      const s = (await cli(['--db', served, '--json', 'db', 'info'], env)).json();
      expect(s.recent_ingest_runs.map((r: any) => r.url)).toEqual(
        a.recent_ingest_runs.map((r: any) => `file://${path.resolve(r.url.slice('file://'.length))}`),
      );
      const withoutUrls = (b: any) => ({
        ...b,
        path: '<db>',
        recent_ingest_runs: b.recent_ingest_runs.map(({ url, ...r }: any) => r),
      });
      expect(withoutUrls(s)).toEqual(withoutUrls(a));
    });

    it('answers bad input through the channel with exit 2 and the standalone message', async () => {
      const missing = await same(['ingest', 'usgs-earthquakes', '--from', 'no-such-feed.geojson']);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/^catintel: cannot read --from no-such-feed\.geojson: .*\[invalid_input\]\n$/);
      const unknown = await same(['--json', 'keys', 'revoke', 'key_0000000000000000']);
      expect(unknown.code).toBe(2);
      expect(JSON.parse(unknown.stderr)).toMatchObject({ status: 404, code: 'not_found' });
    });

    it('creates an API key through the server that works on its very next request', async () => {
      const created = await cli(
        [
          '--db',
          served,
          '--json',
          '--account',
          'ops@county.gov',
          'keys',
          'create',
          '--tier',
          'agency',
          '--name',
          'cron',
        ],
        env,
      );
      expect(created.code, created.stderr).toBe(0);
      expect(created.json()).toMatchObject({
        tier: 'agency',
        name: 'cron',
        account: 'ops@county.gov',
        revoked_at: null,
      });
      const res = await fetch(`${server.url}/api/v1/triggers`, {
        headers: { authorization: `Bearer ${created.json().key}` },
      });
      expect(res.status).not.toBe(401); // the key is known at once (triggers may still be planned: 501)
    });

    it('runs storeless commands beside the server without touching its store', async () => {
      const input = path.join(dir, 'sites.csv');
      fs.writeFileSync(input, 'id,lat,lng\nA,25.77,-80.19\nB,34.05,-118.24\n');
      const scored = await cli(
        ['--db', served, '--quiet', '--json', 'score', '--input', input, '--out', path.join(dir, 'scores')],
        env,
      );
      expect(scored.code, scored.stderr).toBe(0);
      expect(scored.json()).toMatchObject({ rows: 2, scored: 2 });
      const token = await cli(
        ['--db', served, '--json', 'token', 'issue', '--tier', 'analyst', '--sub', 'a@example.com'],
        env,
      );
      expect(token.code, token.stderr).toBe(0);
    });

    it("listens on an owner-only socket named in serve.json, and refuses a request without this run's token", async () => {
      const info = JSON.parse(fs.readFileSync(`${served}.serve.json`, 'utf8'));
      expect(info.socket).toBe(`${served}.serve.sock`);
      expect(fs.statSync(info.socket).mode & 0o777).toBe(0o600);
      const answer = await new Promise<string>((resolve, reject) => {
        const s = net.connect(info.socket, () =>
          s.write(
            JSON.stringify({
              token: 'ci_admin_guess',
              handler: 'keys.list',
              raw: {},
              account: 'local',
              db: served,
              env: {},
            }) + '\n',
          ),
        );
        let data = '';
        s.setEncoding('utf8')
          .on('data', (d) => (data += d))
          .on('end', () => resolve(data))
          .on('error', reject);
      });
      expect(JSON.parse(answer)).toMatchObject({ error: { code: 'unauthorized' } });
    });

    it('refuses a second `catintel serve` on the same store with exit 4', async () => {
      const second = await cli(['--db', served, 'serve', '--port', '0', '--access-log', 'off'], env);
      expect(second.code).toBe(4);
      expect(second.stderr).toMatch(/locked by `catintel serve` \(pid \d+ /);
    });

    it('starts a new server over what a killed one left; once killed, the CLI opens the store itself and clears those leftovers', async () => {
      const kill = async () => {
        const exited = new Promise((r) => server.child.once('exit', r));
        server.child.kill('SIGKILL');
        await exited;
      };
      await kill();
      expect(fs.existsSync(`${served}.serve.sock`)).toBe(true); // a killed server leaves its socket and serve.json
      server = await serve(served, dir);
      const viaNew = await cli(['--db', served, '--json', 'db', 'info'], env);
      expect(viaNew.code, viaNew.stderr).toBe(0);

      await kill();
      const info = await cli(['--db', served, '--json', 'db', 'info'], env);
      expect(info.code, info.stderr).toBe(0);
      expect(info.json()).toEqual(viaNew.json());
      // Having opened the store itself, the CLI knows no server owns it: the dead run's files (its admin token) go.
      expect(fs.existsSync(`${served}.serve.json`)).toBe(false);
      expect(fs.existsSync(`${served}.serve.sock`)).toBe(false);
    });
  },
);

describe.skipIf(!built)('the local channel in corners', () => {
  it('puts the socket in an owner-only temp directory when <db>.serve.sock would be too long for a Unix socket, and removes it on stop', async () => {
    const deep = path.join(tempDir('catintel-sharing-'), 'a-directory-name-long-enough'.repeat(3));
    fs.mkdirSync(deep);
    const db = path.join(deep, 'store.duckdb');
    expect(Buffer.byteLength(`${db}.serve.sock`)).toBeGreaterThan(107);
    const server = await serve(db, deep);
    try {
      const socket = JSON.parse(fs.readFileSync(`${db}.serve.json`, 'utf8')).socket as string;
      expect(Buffer.byteLength(socket)).toBeLessThan(104);
      expect(fs.statSync(path.dirname(socket)).mode & 0o777).toBe(0o700);
      const created = await cli(['--db', db, '--json', 'keys', 'create', '--tier', 'analyst', '--name', 'deep'], env);
      expect(created.code, created.stderr).toBe(0);
      const stopped = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGTERM');
      expect(await stopped).toBe(0);
      expect(fs.existsSync(path.dirname(socket))).toBe(false);
    } finally {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    }
  });

  describe('one server: a watch through it, then its stop', () => {
    // The watch runs through the server while it is up; the last test stops it (a server start is a node
    // process loading the whole CLI: one for both, not one each).
    let db: string;
    let server: Served;
    beforeAll(async () => {
      const dir = tempDir('catintel-sharing-');
      db = path.join(dir, 'watched.duckdb');
      server = await serve(db, dir);
    });
    afterAll(() => {
      if (server.child.exitCode === null) server.child.kill('SIGKILL');
    });

    it('runs `ingest --watch` through the server one round per tick, and stops cleanly on Ctrl-C', async () => {
      const watcher = spawn(
        process.execPath,
        [
          BIN,
          '--db',
          db,
          '--json',
          '--quiet',
          'ingest',
          'usgs-earthquakes',
          '--from',
          sharedData('feeds/usgs_earthquakes/all_day.geojson'),
          '--watch',
          '1',
        ],
        {
          env: { ...process.env, ...env },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let out = '';
      let err = '';
      watcher.stderr!.on('data', (d: Buffer) => (err += d));
      const exited = new Promise<number | null>((r) => watcher.once('exit', r));
      await new Promise<void>((resolve, reject) => {
        watcher.stdout!.on('data', (d: Buffer) => {
          out += d;
          if ((out.match(/"runs"/g) ?? []).length >= 2) resolve();
        });
        watcher.once('exit', () => reject(new Error(`watch exited early: ${err}`)));
      });
      watcher.kill('SIGINT');
      expect(await exited).toBe(0);
      const rounds = out.split(/\n(?=\{)/).map((doc) => JSON.parse(doc));
      expect(rounds[0].runs[0].inserted).toBeGreaterThan(0);
      expect(rounds[1].runs[0].inserted).toBe(0); // the second round found nothing new: no duplicates
      expect(err).toBe('');
      expect(server.child.exitCode).toBeNull(); // the server outlives the watch
    });

    it('runs a command sent while the server is stopping on the store itself, once the server lets go of it', async () => {
      // Through the server once first: the command's code is loaded, so the next one reaches the store while it stops.
      expect((await cli(['--db', db, '--json', 'keys', 'list'], env)).code).toBe(0);
      const exited = new Promise<number | null>((r) => server.child.once('exit', r));
      server.child.kill('SIGTERM');
      // "stopping" is logged as the channel stops listening, a moment before the store closes.
      while (!server.stderr().includes('"message":"stopping"')) await new Promise((r) => setTimeout(r, 10));
      const created = await cli(['--db', db, '--json', 'keys', 'create', '--tier', 'analyst', '--name', 'late'], env);
      expect(created.code, created.stderr).toBe(0);
      expect(created.json()).toMatchObject({ name: 'late', tier: 'analyst' });
      expect(await exited).toBe(0);
      const listed = await cli(['--db', db, '--json', 'keys', 'list'], env);
      expect(JSON.stringify(listed.json())).toContain('"late"');
    }, 120_000);
  });
});
