/**
 * Faults of an online source, replayed from a local server: a feed that times out, answers 5xx or 429,
 * sends truncated JSON, an HTML error page or a changed schema. Each run fails with one line and exit
 * code 1, is recorded with its reason (GET /health/sources shows it), the last good data keeps serving,
 * X-Data-Freshness keeps counting from the last success, and the next good run recovers.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';
import { appOn } from './helpers/store.js';
import { responseProblems } from './http/helpers/openapi.js';

const feed = fs.readFileSync(sharedData('feeds/usgs_earthquakes/all_day.geojson'));
/** The same feed after a (hypothetical) schema change upstream: `mag` renamed. */
const changed = Buffer.from(feed.toString('utf8').replaceAll('"mag":', '"magnitude":'));

const routes: Record<string, (res: http.ServerResponse) => void> = {
  '/good': (res) => res.writeHead(200, { 'content-type': 'application/geo+json' }).end(feed),
  '/hang': () => {}, // never answers
  '/5xx': (res) => res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway'),
  '/429': (res) => res.writeHead(429, { 'retry-after': '3600' }).end(),
  '/truncated': (res) =>
    res.writeHead(200, { 'content-type': 'application/geo+json' }).end(feed.subarray(0, Math.floor(feed.length / 2))),
  '/html': (res) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!DOCTYPE html><html><body><h1>503 Service Temporarily Unavailable</h1></body></html>'),
  '/changed': (res) => res.writeHead(200, { 'content-type': 'application/geo+json' }).end(changed),
};
const hits: Record<string, number> = {};
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    hits[req.url!] = (hits[req.url!] ?? 0) + 1;
    (routes[req.url!] ?? ((r) => r.writeHead(404).end()))(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise((r) => {
      server.closeAllConnections();
      server.close(r);
    }),
);

const T0 = Date.parse('2022-09-29T04:00:00Z');
/** Cron runs a minute apart: each run has its own time. */
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString().replace('.000Z', 'Z');
const env = (minutes: number) => ({
  CATINTEL_NOW: at(minutes),
  CATINTEL_FETCH_TIMEOUT_MS: '300',
  CATINTEL_FETCH_BACKOFF_MS: '10',
  CATINTEL_FETCH_ATTEMPTS: '2',
});

const FAULTS: { path: string; reason: RegExp; attempts: number }[] = [
  { path: '/hang', reason: /no answer within 300 ms/, attempts: 2 },
  { path: '/5xx', reason: /HTTP 502\) after 2 attempt/, attempts: 2 },
  { path: '/429', reason: /HTTP 429, Retry-After 3600 s\)/, attempts: 1 }, // asked to wait an hour: not within this run
  { path: '/truncated', reason: /cannot read .*starts like JSON but does not parse/, attempts: 1 },
  { path: '/html', reason: /HTTP 200 with an HTML page instead of the feed/, attempts: 2 },
  { path: '/changed', reason: /cannot read .*without USGS "metadata" and "mag"/, attempts: 1 },
];

async function liveIds(db: string, minutes: number): Promise<string[]> {
  const r = await cli(['--db', db, '--json', 'events', 'live', '--limit', '1000'], { CATINTEL_NOW: at(minutes) });
  expect(r.code, r.stderr).toBe(0);
  return r
    .json()
    .features.map((f: any) => f.properties.id)
    .sort();
}

async function sourcesHealth(db: string, minutes: number) {
  const app = await appOn(db, at(minutes));
  try {
    const res = await app.get('/api/v1/health/sources');
    expect(
      await responseProblems('GET', 'http://localhost/api/v1/health/sources', res.clone(), { rateLimited: false }),
    ).toEqual([]);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    return body.sources.find((s: any) => s.source === 'usgs-earthquakes');
  } finally {
    await app.close();
  }
}

describe('a failing source', () => {
  let db: string;
  let before: string[];

  beforeAll(async () => {
    db = path.join(tempDir(), 'store.duckdb');
    const first = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', `${base}/good`], env(0));
    expect(first.code, first.stderr).toBe(0);
    before = await liveIds(db, 0);
    expect(before.length).toBeGreaterThan(100);
  });

  it.each(FAULTS.map((f, i) => ({ ...f, minute: i + 1 })))(
    '$path: recorded with its reason, the last good data keeps serving',
    async ({ path: p, reason, attempts, minute }) => {
      const hitsBefore = hits[p] ?? 0;
      const r = await cli(['--db', db, 'ingest', 'usgs-earthquakes', '--from', `${base}${p}`], env(minute));
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(reason);
      expect((hits[p] ?? 0) - hitsBefore).toBe(attempts);

      expect(await liveIds(db, minute)).toEqual(before);
      const h = await sourcesHealth(db, minute);
      expect(h).toMatchObject({
        status: 'failing',
        last_run_status: 'failed',
        last_success_at: '2022-09-29T04:00:00.000Z',
        lag_seconds: minute * 60,
        records: feed.toString().match(/"type":"Feature"/g)!.length,
        failures_since_success: minute,
        next_run_at: null,
      });
      expect(h.last_error.at).toBe(new Date(T0 + minute * 60_000).toISOString());
      expect(h.last_error.message).toMatch(reason);
    },
  );

  it('X-Data-Freshness counts from the last success, not the failed runs', async () => {
    const app = await appOn(db, at(10));
    try {
      for (const url of [
        '/api/v1/events/live',
        '/api/v1/events/live?event_type=earthquake',
        `/api/v1/events/${before[0]}`,
        `/api/v1/events/${before[0]}/rings`,
      ]) {
        const res = await app.get(url);
        expect(res.status, url).toBe(200);
        expect(res.headers.get('x-data-freshness'), url).toBe('600');
        expect(await responseProblems('GET', `http://localhost${url}`, res, { rateLimited: false })).toEqual([]);
      }
      // Not an events answer: no freshness header.
      expect((await app.get('/api/v1/health')).headers.get('x-data-freshness')).toBeNull();
    } finally {
      await app.close();
    }
  });

  it('the next good run recovers: ok, nothing duplicated, freshness back to zero', async () => {
    const r = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', `${base}/good`], env(11));
    expect(r.code, r.stderr).toBe(0);
    expect(r.json().runs[0]).toMatchObject({ status: 'ok', inserted: 0 });
    expect(await liveIds(db, 11)).toEqual(before);
    const h = await sourcesHealth(db, 11);
    expect(h).toMatchObject({
      status: 'ok',
      last_run_status: 'ok',
      last_success_at: new Date(T0 + 11 * 60_000).toISOString(),
      lag_seconds: 0,
      failures_since_success: 0,
    });
    expect(h.last_error.message).toMatch(/does not parse|metadata/); // the last error stays visible, with its time
    const app = await appOn(db, at(11));
    try {
      expect((await app.get('/api/v1/events/live')).headers.get('x-data-freshness')).toBe('0');
    } finally {
      await app.close();
    }
  });
});

describe('GET /api/v1/health', () => {
  it('answers for load balancers: store open, the clock, the version; never cached', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    const app = await appOn(db, '2022-09-29T04:00:00Z');
    try {
      const res = await app.get('/api/v1/health');
      expect(
        await responseProblems('GET', 'http://localhost/api/v1/health', res.clone(), { rateLimited: false }),
      ).toEqual([]);
      const version = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version;
      expect(await res.json()).toEqual({
        status: 'ok',
        version,
        clock: '2022-09-29T04:00:00.000Z',
        store: { status: 'open', schema_version: expect.any(Number) },
      });
      expect(res.headers.get('cache-control')).toBe('no-store');
      // A draining server (SIGTERM) is taken out of rotation, and back when it is not.
      app.app.setDraining(true);
      const draining = await app.get('/api/v1/health');
      expect(draining.status).toBe(503);
      expect(
        await responseProblems('GET', 'http://localhost/api/v1/health', draining.clone(), { rateLimited: false }),
      ).toEqual([]);
      expect(await draining.json()).toEqual({ status: 'draining' });
      app.app.setDraining(false);
      expect((await app.get('/api/v1/health')).status).toBe(200);
      // A store that no longer answers takes the instance out of rotation.
      await app.db.close();
      const down = await app.get('/api/v1/health');
      expect(down.status).toBe(503);
      expect(await down.json()).toMatchObject({ status: 'unavailable', store: { status: 'unavailable' } });
    } finally {
      await app.close().catch(() => undefined);
    }
  });

  it('/health/sources lists every source, never_run before any ingest, with no freshness to report', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    const app = await appOn(db, '2022-09-29T04:00:00Z');
    try {
      const body = await (await app.get('/api/v1/health/sources')).json();
      expect(body.status).toBe('ok');
      expect(body.sources.map((s: any) => s.source)).toEqual([
        'usgs-earthquakes',
        'nws-alerts',
        'nhc',
        'nifc-wildfires',
        'usgs-gauges',
      ]);
      expect(body.sources.every((s: any) => s.status === 'never_run' && s.last_success_at === null)).toBe(true);
      expect((await app.get('/api/v1/events/live')).headers.get('x-data-freshness')).toBeNull();
    } finally {
      await app.close();
    }
  });
});
