/**
 * `catintel serve` as an operator runs it: a real process on a loopback port. While it holds the store,
 * `catintel keys ...` reaches it through its local channel, so a revoke takes effect on the next
 * request; SIGTERM drains and closes the store cleanly; the access log names credentials by id only.
 * And the server's socket behaviour: in-flight requests finish on stop, slow clients are cut off.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineHandler } from '../../src/handlers/types.js';
import { startServer } from '../../src/http/server.js';
import type { Store } from '../../src/store/db.js';
import { cli, tempDir } from '../helpers/cli.js';
import { REPO_ROOT, sharedData } from '../helpers/paths.js';
import { responseProblems } from '../http/helpers/openapi.js';
import { AUTH, FEED_NOW, SECRET, contextOn, seededStore, token } from '../http/helpers/harness.js';

const BIN = path.join(REPO_ROOT, 'bin/catintel');
const built = fs.existsSync(path.join(REPO_ROOT, 'dist/src/cli/main.js'));

async function startCli(
  db: string,
  accessLog: string,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, [BIN, '--db', db, 'serve', '--port', '0', '--access-log', accessLog], {
    env: { ...process.env, CATINTEL_JWT_SECRET: SECRET, CATINTEL_NOW: FEED_NOW },
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

async function get(url: string, credential?: string): Promise<Response> {
  const res = await fetch(url, { headers: credential ? { authorization: `Bearer ${credential}` } : {} });
  expect(await responseProblems('GET', url, res)).toEqual([]);
  return res;
}

describe.skipIf(!built)('catintel serve (a real process; needs `make build`)', () => {
  let dir: string;
  let db: string;
  let server: Awaited<ReturnType<typeof startCli>>;
  let accessLog: string;

  beforeAll(async () => {
    dir = tempDir();
    db = path.join(dir, 'served.duckdb');
    accessLog = path.join(dir, 'access.ndjson');
    const seeded = await cli(
      ['--db', db, 'ingest', 'usgs-earthquakes', '--from', sharedData('feeds/usgs_earthquakes/all_day.geojson')],
      { CATINTEL_NOW: FEED_NOW },
    );
    expect(seeded.code).toBe(0);
    server = await startCli(db, accessLog);
  });
  afterAll(() => {
    if (server.child.exitCode === null) server.child.kill('SIGKILL');
  });

  it("writes <db>.serve.json (owner-only) with its address and this run's admin token", () => {
    const file = `${db}.serve.json`;
    const info = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(info).toMatchObject({ pid: server.child.pid, url: server.url });
    expect(info.admin_token).toMatch(/^ci_admin_[0-9A-Za-z]{43}$/);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('takes `catintel keys create|list|revoke` through the running server; a revoked key fails on its next request', async () => {
    const created = await cli(['--db', db, '--json', 'keys', 'create', '--tier', 'agency', '--name', 'county ops']);
    expect(created.code, created.stderr).toBe(0);
    const { key, id } = created.json();
    expect((await get(`${server.url}/api/v1/triggers`, key)).status).toBe(200); // agency passes the access check

    const listed = await cli(['--db', db, '--json', 'keys', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.json().keys.map((k: any) => k.id)).toContain(id);

    const revoked = await cli(['--db', db, 'keys', 'revoke', id]);
    expect(revoked.code, revoked.stderr).toBe(0);
    const after = await get(`${server.url}/api/v1/triggers`, key);
    expect(after.status).toBe(401);
    expect(((await after.json()) as any).detail).toBe('unknown or revoked API key');

    // Every other command goes the same way (test/serve-sharing.test.ts): the server stays the one writer.
    const ingest = await cli(
      ['--db', db, 'ingest', 'usgs-earthquakes', '--from', sharedData('feeds/usgs_earthquakes/all_day.geojson')],
      { CATINTEL_NOW: FEED_NOW },
    );
    expect(ingest.code, ingest.stderr).toBe(0);
  });

  it('accepts tokens from `catintel token issue` with the same secret', async () => {
    const t = await cli(['--json', 'token', 'issue', '--tier', 'analyst', '--sub', 'alice@example.com'], {
      CATINTEL_JWT_SECRET: SECRET,
    });
    expect(t.code).toBe(0);
    const live = (await (await get(`${server.url}/api/v1/events/live?limit=1`)).json()) as any;
    const r = await get(`${server.url}/api/v1/events/${live.features[0].id}/briefing`, t.json().token);
    expect(r.status).toBe(200); // analyst and up (docs/reports.md)
    expect(r.headers.get('content-type')).toBe('application/pdf');
  });

  it('logs one NDJSON line per request, naming credentials by id and never by value', async () => {
    const jwt = await token('enterprise', { sub: 'ops@example.com' });
    await get(`${server.url}/api/v1/events/live?limit=2&api_key=oops-in-the-url`, jwt);
    await new Promise((r) => setTimeout(r, 100));
    const text = fs.readFileSync(accessLog, 'utf8');
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThanOrEqual(5);
    const last = lines[lines.length - 1];
    expect(last).toMatchObject({
      method: 'GET',
      path: '/api/v1/events/live',
      status: 200,
      tier: 'enterprise',
      credential: 'jwt:catintel|ops@example.com',
      query: 'limit=2&api_key=***',
    });
    expect(last.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(text).not.toContain(jwt);
    expect(text).not.toMatch(/ci_(live|test|admin)_[0-9A-Za-z]{43}/);
    expect(text).not.toMatch(/eyJ[\w-]+\.[\w-]+\./);
  });

  it('stops on SIGTERM: exit 0, the store closed and unlocked, serve.json removed', async () => {
    const exited = new Promise<number | null>((r) => server.child.on('exit', (code) => r(code)));
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(server.stderr()).toMatch(/"message":"stopped"/);
    expect(fs.existsSync(`${db}.serve.json`)).toBe(false);
    const list = await cli(['--db', db, '--json', 'keys', 'list', '--include-revoked']);
    expect(list.code).toBe(0);
    expect(list.json().keys[0].revoked_at).toBeTruthy();
  });
});

describe('the socket', () => {
  let db: Store;
  beforeAll(async () => {
    db = await seededStore();
  });
  afterAll(() => db.close());

  const slow = defineHandler({
    name: 'test.slow',
    summary: 'answers after 400 ms',
    http: { method: 'GET', path: '/slow', access: 'free' },
    parse: () => ({}),
    async run() {
      await new Promise((r) => setTimeout(r, 400));
      return { body: { done: true } };
    },
  });

  it('lets in-flight requests finish on stop, closing their connection, and takes no new ones', async () => {
    const s = await startServer({ ctx: contextOn(db), auth: AUTH, host: '127.0.0.1', port: 0, handlers: [slow] });
    const inflight = fetch(`${s.url}/api/v1/slow`);
    await new Promise((r) => setTimeout(r, 100));
    const stopped = s.stop(5000);
    const res = await inflight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    expect(res.headers.get('connection')).toBe('close');
    await stopped;
    await expect(fetch(`${s.url}/api/v1/healthz`)).rejects.toThrow();
  });

  it('answers health 503 while draining', async () => {
    const s = await startServer({ ctx: contextOn(db), auth: AUTH, host: '127.0.0.1', port: 0, handlers: [slow] });
    const inflight = fetch(`${s.url}/api/v1/slow`);
    await new Promise((r) => setTimeout(r, 50));
    s.app.setDraining(true);
    const health = await s.app.fetch(new Request('http://localhost/healthz'));
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'draining' });
    await (await inflight).arrayBuffer();
    await s.stop(1000);
  });

  it('cuts off a client that never finishes its headers', async () => {
    const s = await startServer({
      ctx: contextOn(db),
      auth: AUTH,
      host: '127.0.0.1',
      port: 0,
      headersTimeoutMs: 300,
      requestTimeoutMs: 600,
    });
    try {
      const port = Number(new URL(s.url).port);
      const started = Date.now();
      const closed = await new Promise<{ ms: number; data: string }>((resolve) => {
        const sock = net.connect(port, '127.0.0.1', () =>
          sock.write('GET /api/v1/healthz HTTP/1.1\r\nHost: x\r\nX-Slow: '),
        );
        let data = '';
        sock.on('data', (d) => (data += d));
        sock.on('close', () => resolve({ ms: Date.now() - started, data }));
      });
      expect(closed.ms).toBeLessThan(5000);
      expect(closed.data).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await s.stop(500);
    }
  });
});
