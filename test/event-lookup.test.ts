/**
 * `{id}` takes the UUID, the slug or the source's own id (docs/contract.md#events): a USGS event answers to each of
 * its network ids, a storm to its ATCF id in any case; an id two events share is 409 naming both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, tempDir } from './helpers/cli.js';
import { REPO_ROOT, sharedData } from './helpers/paths.js';
import { appOn, seedStore, WEEK_NOW, weekStore } from './helpers/store.js';

const WEEK = sharedData('feeds/usgs_earthquakes/all_week.geojson');

describe('event lookup by the source id', () => {
  let db: string;
  beforeAll(async () => {
    db = await weekStore();
  });

  it('finds a USGS event by any of its network ids, in any case (CLI)', async () => {
    // ak0208qi8yhv is also us7000ak7h at the NEIC: both names must reach the one event.
    const byOwn = await cli(['--db', db, '--json', 'events', 'show', 'ak0208qi8yhv'], { CATINTEL_NOW: WEEK_NOW });
    expect(byOwn.code, byOwn.stderr).toBe(0);
    const byOther = await cli(['--db', db, '--json', 'events', 'show', 'US7000AK7H'], { CATINTEL_NOW: WEEK_NOW });
    expect(byOther.code, byOther.stderr).toBe(0);
    expect(byOther.json().properties.id).toBe(byOwn.json().properties.id);
    expect(byOwn.json().properties.source_url).toContain('ak0208qi8yhv');
  });

  it('answers 404 naming the id for an unknown one, and the other event endpoints take source ids too (HTTP)', async () => {
    const app = await appOn(db, WEEK_NOW);
    try {
      const rings = await app.get('/api/v1/events/us7000ak7h/rings');
      expect(rings.status).toBe(200);
      const score = await app.get('/api/v1/events/ak0208qi8yhv/score?perils=earthquake');
      expect([200, 422]).toContain(score.status); // 422 only if the event lies outside the covered area
      const missing = await app.get('/api/v1/events/nc216859');
      expect(missing.status).toBe(404);
      expect((await missing.json()).detail).toContain('nc216859');
    } finally {
      await app.close();
    }
  });
});

describe('a storm by its ATCF id', () => {
  it('finds Hurricane Ian as AL092022 and al092022 in the embedded snapshot', async () => {
    const asOf = fs.readFileSync(path.join(REPO_ROOT, 'data/seed/as-of.txt'), 'utf8').trim();
    const db = await seedStore(); // `db seed` at asOf, the seed's instant
    for (const id of ['AL092022', 'al092022']) {
      const r = await cli(['--db', db, '--json', 'events', 'show', id], { CATINTEL_NOW: asOf });
      expect(r.code, r.stderr).toBe(0);
      expect(r.json().properties.title).toMatch(/Ian/);
    }
  });
});

describe('an id two events share', () => {
  let db: string;
  let now: string;
  beforeAll(async () => {
    // A real week-feed record and a second, not yet associated solution from another network that lists
    // the first one's id among its own (as USGS does before it merges them): the same wire format.
    const feed = JSON.parse(fs.readFileSync(WEEK, 'utf8'));
    const first = feed.features.find((f: any) => f.id === 'ak0208qi8yhv');
    const second = structuredClone(feed.features.find((f: any) => f.id === 'ak0208qfd4l8'));
    second.properties.ids = ',us7000ak00,ak0208qfd4l8,ak0208qi8yhv,';
    const file = path.join(tempDir(), 'pair.geojson');
    fs.writeFileSync(
      file,
      JSON.stringify({ ...feed, features: [first, second], metadata: { ...feed.metadata, count: 2 } }),
    );
    now = WEEK_NOW;
    db = path.join(tempDir(), 'pair.duckdb');
    const r = await cli(['--db', db, 'ingest', 'usgs-earthquakes', '--from', file], { CATINTEL_NOW: now });
    expect(r.code, r.stderr).toBe(0);
  });

  it('is 409 with both candidates over HTTP, and exit 2 naming them in the CLI', async () => {
    const app = await appOn(db, now);
    try {
      const r = await app.get('/api/v1/events/ak0208qi8yhv');
      expect(r.status).toBe(409);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      const body = await r.json();
      expect(body.code).toBe('conflict');
      expect(body.errors).toHaveLength(2);
      const unique = await app.get('/api/v1/events/ak0208qfd4l8'); // named by one event only
      expect(unique.status).toBe(200);
    } finally {
      await app.close();
    }
    const c = await cli(['--db', db, 'events', 'show', 'AK0208QI8YHV'], { CATINTEL_NOW: now });
    expect(c.code).toBe(2);
    expect(c.stderr).toMatch(/names 2 events.*slug or UUID/);
  });
});

describe('reading at an instant before an event was published', () => {
  it('lists, finds and counts only what the sources had published by then', async () => {
    const db = await weekStore(); // ingested at the feed's own time
    const early = '2020-07-03T00:00:00Z';
    const all = (
      await cli(['--db', db, '--json', 'events', 'live', '--limit', '1000'], { CATINTEL_NOW: WEEK_NOW })
    ).json();
    const then = (
      await cli(['--db', db, '--json', 'events', 'live', '--limit', '1000'], { CATINTEL_NOW: early })
    ).json();
    const later = all.features.filter((f: any) => f.properties.started_at > early && f.properties.updated_at > early);
    expect(later.length).toBeGreaterThan(100);
    expect(then.numberMatched).toBeGreaterThan(0);
    for (const f of then.features)
      expect(f.properties.started_at <= early || f.properties.updated_at <= early).toBe(true);
    const unknown = await cli(['--db', db, 'events', 'show', later[0].properties.id], { CATINTEL_NOW: early });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('[not_found]');
  });
});
