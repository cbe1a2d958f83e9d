/**
 * Online ingest against a local server replaying a real recorded feed: User-Agent sent, conditional GET
 * (ETag -> 304 -> not_modified), bounded retries on 5xx, and a clear failure on a feed that never answers.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const body = fs.readFileSync(sharedData('feeds/usgs_earthquakes/all_day.geojson'));
const seen: { url: string; ua?: string; inm?: string }[] = [];
let failuresLeft = 0;
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({
      url: req.url!,
      ua: req.headers['user-agent'],
      inm: req.headers['if-none-match'] as string | undefined,
    });
    if (req.url === '/hang') return; // never answers
    if (req.url === '/flaky' && failuresLeft-- > 0) return res.writeHead(503).end('busy');
    if (req.headers['if-none-match'] === '"week-1"') return res.writeHead(304).end();
    res.writeHead(200, { 'content-type': 'application/geo+json', etag: '"week-1"' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const env = { CATINTEL_NOW: '2022-09-29T04:00:00Z', CATINTEL_FETCH_TIMEOUT_MS: '300', CATINTEL_FETCH_BACKOFF_MS: '10' };

describe('online ingest', () => {
  it('sends a User-Agent, then asks conditionally and records not_modified', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    const first = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', `${base}/feed`], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json().runs[0]).toMatchObject({ status: 'ok', inserted: 239 });
    expect(seen.at(-1)!.ua).toMatch(/^catintel\//);

    const second = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', `${base}/feed`], env);
    expect(seen.at(-1)!.inm).toBe('"week-1"');
    expect(second.json().runs[0]).toMatchObject({ status: 'not_modified', inserted: 0, updated: 0 });
  });

  it('retries a 503 with backoff and succeeds', async () => {
    failuresLeft = 2;
    const db = path.join(tempDir(), 'store.duckdb');
    const before = seen.length;
    const r = await cli(['--db', db, '--json', 'ingest', 'usgs-earthquakes', '--from', `${base}/flaky`], env);
    expect(r.code, r.stderr).toBe(0);
    expect(seen.length - before).toBe(3);
  });

  it('gives up on a feed that never answers, with one line and exit code 1, store unchanged', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    const r = await cli(['--db', db, 'ingest', 'usgs-earthquakes', '--from', `${base}/hang`], {
      ...env,
      CATINTEL_FETCH_ATTEMPTS: '2',
    });
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /could not read http:\/\/127\.0\.0\.1:\d+\/hang \(no answer within 300 ms\) after 2 attempt\(s\)/,
    );
    const info = (await cli(['--db', db, '--json', 'db', 'info'])).json();
    expect(info.events).toBe(0);
    expect(info.recent_ingest_runs[0]).toMatchObject({ source: 'usgs-earthquakes', status: 'failed' });
  });
});
