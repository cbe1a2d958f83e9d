/**
 * A cluster store (DuckLake with its catalog in PostgreSQL, plus PostgreSQL tables) served by two `serve`
 * replicas in separate processes and written by a third (the CLI): the replicas hear of the write and answer
 * it byte for byte alike, state written through one is read through the other at once, and the rate limit
 * holds exactly across both (docs/cluster-store.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.js';
import { REPO_ROOT, sharedData } from '../helpers/paths.js';
import { startServe, stopServe, type ServeChild } from '../helpers/serve.js';
import { startPostgres, type ThrowawayPostgres } from '../helpers/throwaway-postgres.js';
import { FORT_MYERS_TRIGGER } from '../helpers/fort-myers-trigger.js';

const AS_OF = fs.readFileSync(path.join(REPO_ROOT, 'data/seed/as-of.txt'), 'utf8').trim();
const env = { CATINTEL_NOW: AS_OF };
const DAY_FEED = sharedData('feeds/usgs_earthquakes/all_day.geojson');
const IAN = sharedData('hazard_history/hurricanes/bal092022.dat');

let pg: ThrowawayPostgres;
let store: string;
let key: string;
const replicas: ServeChild[] = [];

beforeAll(async () => {
  pg = await startPostgres();
  store = await pg.storeAddress('replicas');
  key = await createKey('analyst', 'replicas');
  for (let i = 0; i < 2; i++) replicas.push(await startServe(store, { env }));
}, 180_000);

afterAll(async () => {
  await Promise.all(replicas.map((r) => stopServe(r)));
  await pg?.stop();
});

/** An API key made by the CLI on the cluster store: of the CLI's account, or of `account`. */
async function createKey(tier: string, name: string, account?: string): Promise<string> {
  const created = await cli(
    [
      '--db',
      store,
      ...(account ? ['--account', account] : []),
      '--json',
      'keys',
      'create',
      '--tier',
      tier,
      '--name',
      name,
    ],
    env,
  );
  expect(created.code, created.stderr).toBe(0);
  return created.json().key as string;
}

const request = (replica: number, url: string, init: RequestInit = {}, auth = true) =>
  fetch(`${replicas[replica].url}${url}`, {
    ...init,
    headers: { ...(auth && { authorization: `Bearer ${key}` }), ...init.headers },
  });

async function matched(replica: number): Promise<number> {
  const r = await request(replica, '/api/v1/events/live?limit=1');
  expect(r.status).toBe(200);
  return ((await r.json()) as { numberMatched: number }).numberMatched;
}

describe('a cluster store behind two serve replicas', () => {
  it('an ingest by another process reaches both replicas, which then answer byte for byte alike', async () => {
    expect([await matched(0), await matched(1)]).toEqual([0, 0]);
    const ingest = await cli(['--db', store, '--json', 'ingest', 'usgs-earthquakes', '--from', DAY_FEED], env);
    expect(ingest.code, ingest.stderr).toBe(0);
    const inserted = ingest.json().runs[0].inserted as number;
    expect(inserted).toBeGreaterThan(100);
    // The replicas hear of the write over PostgreSQL's LISTEN/NOTIFY and rebuild their live index.
    const deadline = Date.now() + 30_000;
    while ((await matched(0)) === 0 || (await matched(1)) === 0) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 200));
    }
    const live = await request(0, '/api/v1/events/live?limit=500');
    const body = await live.text();
    expect(JSON.parse(body).numberMatched).toBe(inserted);
    const first = JSON.parse(body).features[0].id as string;
    for (const url of [
      '/api/v1/events/live?limit=500',
      `/api/v1/events/${first}`,
      '/api/v1/events/live?limit=5&min_severity=3',
    ]) {
      const [a, b] = await Promise.all([request(0, url), request(1, url)]);
      expect([a.status, b.status]).toEqual([200, 200]);
      expect(await b.text()).toBe(await a.text());
    }
  });

  it('a trigger created through one replica is listed by the other at once', async () => {
    const created = await request(0, '/api/v1/triggers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(FORT_MYERS_TRIGGER),
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const id = ((await created.json()) as { id: string }).id;
    const listed = (await (await request(1, '/api/v1/triggers')).json()) as { triggers: { id: string }[] };
    expect(listed.triggers.map((t) => t.id)).toContain(id);
  });

  it('an account’s active-trigger limit holds across the replicas: of 8 creates at once, exactly 3 succeed', async () => {
    const agency = await createKey('agency', 'limit', 'limit@example.com');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        request(i % 2, '/api/v1/triggers', {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${agency}` },
          body: JSON.stringify({ ...FORT_MYERS_TRIGGER, name: `Fort Myers ${i}` }),
        }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(3); // the agency tier's limit
    const refused = await Promise.all(answers.filter((a) => a.status !== 201).map((a) => a.json()));
    expect(refused.map((p) => (p as { code: string }).code)).toEqual(Array(5).fill('trigger_limit_reached'));
  });

  it('the rate limit holds exactly across the replicas: 60 anonymous requests a minute in all, the 61st refused by either', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await request(i % 2, '/api/v1/events/live?limit=1', {}, false)).status);
    expect(statuses.slice(0, 60).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(60)).toEqual([429, 429]);
    const refused = await request(0, '/api/v1/events/live?limit=1', {}, false);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('PostgreSQL restarted: every committed write is still there, and the replicas reconnect and hear new writes', async () => {
    const before = (await (await request(0, '/api/v1/triggers')).json()) as { triggers: { id: string }[] };
    const live = await matched(0);
    pg.restart();
    const after = await request(1, '/api/v1/triggers');
    expect(after.status).toBe(200);
    expect(((await after.json()) as { triggers: { id: string }[] }).triggers).toEqual(before.triggers);
    // Ian, live at the pinned clock: written by the CLI after the restart, heard by both replicas.
    const ingest = await cli(['--db', store, '--json', 'ingest', 'nhc', '--from', IAN], env);
    expect(ingest.code, ingest.stderr).toBe(0);
    const deadline = Date.now() + 30_000;
    while ((await matched(0)) !== live + 1 || (await matched(1)) !== live + 1) {
      expect(Date.now()).toBeLessThan(deadline);
      await new Promise((r) => setTimeout(r, 250));
    }
  });

  it('an unreachable PostgreSQL is one line naming the store and the fix, exit code 1', async () => {
    const r = await cli(['--db', `postgres://catintel@127.0.0.1:1/nowhere?data=/tmp/nowhere`, 'events', 'live'], env);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(
      /^catintel: cannot open cluster store postgres:\/\/catintel@127\.0\.0\.1:1\/nowhere\?data=\/tmp\/nowhere: .*; check that PostgreSQL is running there and the database exists \(createdb\) \[unavailable\]/,
    );
  });
});
