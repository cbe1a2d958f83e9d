/**
 * Cron's plain `catintel ingest` reads every source: a feed that is down is listed as failed and the
 * command exits 1, but the sources after it are still read. Feeds are pointed at a local server replaying a
 * real recorded feed with CATINTEL_FEED_URL_<SOURCE> (the mirror setting of air-gapped installs).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';

const quakes = fs.readFileSync(sharedData('feeds/usgs_earthquakes/all_day.geojson'));
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    if (req.url === '/quakes') return res.writeHead(200, { 'content-type': 'application/geo+json' }).end(quakes);
    res.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

const envFor = () => ({
  CATINTEL_NOW: '2022-09-29T04:00:00Z',
  CATINTEL_FETCH_TIMEOUT_MS: '2000',
  CATINTEL_FETCH_ATTEMPTS: '1',
  CATINTEL_FETCH_BACKOFF_MS: '10',
  CATINTEL_FEED_URL_NWS_ALERTS: `${base}/alerts`,
  CATINTEL_FEED_URL_USGS_EARTHQUAKES: `${base}/quakes`,
});

describe('ingest of several sources', () => {
  it('reads the sources after one that is down, lists the failure and exits 1', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    // nws-alerts first: its failure must not keep the earthquakes from being read.
    const r = await cli(['--db', db, '--json', 'ingest', 'nws-alerts', 'usgs-earthquakes'], envFor());
    expect(r.code, r.stderr).toBe(1);
    const runs = r.json().runs;
    expect(runs[0]).toMatchObject({ source: 'nws-alerts', status: 'failed', code: 'upstream_failed' });
    expect(runs[0].error).toMatch(/503/);
    expect(runs[1]).toMatchObject({ source: 'usgs-earthquakes', status: 'ok', inserted: 239 });
    const text = await cli(['--db', db, 'ingest', 'nws-alerts', 'usgs-earthquakes'], envFor());
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^nws-alerts: FAILED, .*\[upstream_failed\]$/m);
    expect(text.stdout).toMatch(/^usgs-earthquakes: \d+ read, 0 new, 0 updated, 239 unchanged/m);
  });

  it('one source that is down is the error itself, and a feed URL that is not a URL is refused', async () => {
    const db = path.join(tempDir(), 'store.duckdb');
    const one = await cli(['--db', db, 'ingest', 'nws-alerts'], envFor());
    expect(one.code).toBe(1);
    expect(one.stderr).toMatch(/\[upstream_failed\]/);
    const bad = await cli(['--db', db, 'ingest', 'usgs-earthquakes'], {
      ...envFor(),
      CATINTEL_FEED_URL_USGS_EARTHQUAKES: 'ftp://mirror/x',
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/CATINTEL_FEED_URL_USGS_EARTHQUAKES="ftp:\/\/mirror\/x" is not an http\(s\) URL/);
  });
});
