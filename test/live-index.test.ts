/**
 * The server's in-memory live-event index (issue 9 part 2): /events/live, /events/nearby and /events/{id}
 * answered from memory are byte for byte the answers read from the store (status, body, ETag; a collection's
 * ETag is the index's own, one per body), over varied filters, cursors, keys and clocks, without a single
 * store query; a write makes the next answer come from the store until the rebuild is in, so a client never
 * sees a stale event.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/http/app.js';
import { defaultConfig } from '../src/config/defaults.js';
import type { Context } from '../src/context.js';
import { ingestSource } from '../src/ingest/run.js';
import { LiveEventIndex } from '../src/live-index/live-index.js';
import { usgsEarthquakes } from '../src/sources/usgs-earthquakes.js';
import { Store } from '../src/store/db.js';
import { tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';
import { seedStore, WEEK_NOW, weekStore } from './helpers/store.js';

interface Pair {
  store: Store;
  index: LiveEventIndex;
  now: { iso: string };
  queries: () => number;
  /** Both answers to one URL; fails the test unless they are the same bytes. */
  same: (url: string) => Promise<any>;
  /** After a write to the store: the index and both apps follow it, as serve's storeChanged() makes them. */
  storeChanged: () => Promise<void>;
  /** The ETag the indexed app gives a URL. */
  etagOf: (url: string) => Promise<string | null>;
  close: () => Promise<void>;
}

async function pairOn(dbPath: string, nowIso: string): Promise<Pair> {
  const store = await Store.open(dbPath, { holder: 'test' });
  const now = { iso: nowIso };
  const clock = () => new Date(now.iso);
  let queries = 0;
  // The indexed app's store counts what it is asked, so a test can tell that memory answered.
  const counted = new Proxy(store, {
    get(target, p) {
      const v = Reflect.get(target, p, target);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if ((p === 'all' || p === 'one' || p === 'run') && !/FROM ingest_runs/.test(String(args[0]))) queries++; // X-Data-Freshness reads its table once a second
        return v.apply(target, args);
      };
    },
  });
  const base: Context = { config: defaultConfig({ dbPath }), db: store, clock, log: () => {}, progress: () => {} };
  const index = new LiveEventIndex(store, clock);
  index.invalidate();
  await index.ready();
  // No stream timer: the event streams read the store only when told the store changed.
  const sqlApp = createApp({ ctx: base, rateLimit: 'off', cacheTtlMs: 0, stream: { tickMs: 0 } });
  const idxApp = createApp({
    ctx: { ...base, db: counted, liveIndex: index },
    rateLimit: 'off',
    cacheTtlMs: 0,
    stream: { tickMs: 0 },
  });
  const get = (app: typeof sqlApp, url: string) =>
    app.fetch(new Request(`http://localhost${url}`, { headers: { 'x-request-id': 'same' } }));
  // The index tags a collection without hashing its bytes (src/live-index/render.ts): a tag other than the
  // store path's content hash, but one tag for one body, and one body for one tag, within a snapshot.
  const bodyOfTag = new Map<string, string>();
  const tagOfBody = new Map<string, string>();
  const same = async (url: string) => {
    const [a, b] = await Promise.all([get(sqlApp, url), get(idxApp, url)]);
    const [ta, tb] = await Promise.all([a.text(), b.text()]);
    const collection = a.status === 200 && JSON.parse(ta).type === 'FeatureCollection';
    const seen = (r: Response, body: string) => ({
      url,
      status: r.status,
      etag: collection ? 'own' : r.headers.get('etag'),
      freshness: r.headers.get('x-data-freshness'),
      body,
    });
    expect(seen(b, tb)).toEqual(seen(a, ta));
    if (collection) {
      const tag = b.headers.get('etag')!;
      expect(tag).toMatch(/^"[\w-]{27}"$/);
      const built = index.builds;
      expect(bodyOfTag.get(`${built}|${tag}`) ?? tb).toBe(tb);
      expect(tagOfBody.get(`${built}|${tb}`) ?? tag).toBe(tag);
      bodyOfTag.set(`${built}|${tag}`, tb);
      tagOfBody.set(`${built}|${tb}`, tag);
    }
    return a.status === 200 ? JSON.parse(ta) : undefined;
  };
  // What serve's storeChanged() does after an ingest: the index rebuilt and swapped in, then each app's caches
  // (X-Data-Freshness's per-source times among them) read again; the write is acknowledged after both.
  const storeChanged = async () => {
    await index.invalidate();
    await Promise.all([sqlApp.storeChanged(), idxApp.storeChanged()]);
  };
  const etagOf = async (url: string) => (await get(idxApp, url)).headers.get('etag');
  return { store, index, now, queries: () => queries, same, storeChanged, etagOf, close: () => store.close() };
}

/** Every page of a listing, following links.next, each compared. */
async function walk(p: Pair, url: string): Promise<any[]> {
  const features: any[] = [];
  for (let next: string | undefined = url; next;) {
    const body = await p.same(next);
    features.push(...body.features);
    next = body.links.find((l: any) => l.rel === 'next')?.href;
  }
  return features;
}

const LIVE_QUERIES = [
  '',
  '?limit=1',
  '?limit=7',
  '?limit=1000',
  '?status=active',
  '?status=monitoring&limit=50',
  '?status=monitoring,active',
  '?event_type=earthquake&limit=20',
  '?event_type=hurricane,flood,extreme_heat',
  '?event_type=wildfire,severe_storm&status=active',
  '?bbox=-125,32,-114,42&limit=30',
  '?bbox=170,-60,-170,60',
  '?bbox=-180,-90,180,90&limit=500',
  '?bbox=-100,30,-80,40&event_type=flood',
  '?since=2020-07-08T00:00:00Z',
  '?since=2022-09-28T12:00:00Z&limit=5',
  '?bbox=-160,15,-150,25&since=2020-07-01T00:00:00Z',
];

async function compareEverything(p: Pair, samples = 20): Promise<number> {
  for (const q of LIVE_QUERIES) await p.same(`/api/v1/events/live${q}`);
  const all = await walk(p, '/api/v1/events/live?limit=397');
  await walk(p, '/api/v1/events/live?limit=40&bbox=-180,-90,0,90&status=active');
  // Keys every way a client names an event: UUID (either case), slug, the source's id (either case).
  for (const f of all.filter((_, i) => i % Math.max(1, Math.floor(all.length / samples)) === 0)) {
    const [lng, lat] = f.geometry.coordinates;
    const show = await p.same(`/api/v1/events/${f.id}`);
    await p.same(`/api/v1/events/${f.id.toUpperCase()}`);
    await p.same(`/api/v1/events/${f.properties.slug}`);
    await p.same(`/api/v1/events/${encodeURIComponent(show.properties.source_id)}`);
    await p.same(`/api/v1/events/${encodeURIComponent(show.properties.source_id.toUpperCase())}`);
    for (const r of [25, 300, 2000]) await p.same(`/api/v1/events/nearby?lat=${lat}&lng=${lng}&radius_km=${r}`);
    if (f === all[0]) await walk(p, `/api/v1/events/nearby?lat=${lat}&lng=${lng}&radius_km=800&limit=9&status=active`);
    // Filters that make every cell be read row by row (src/live-index/nearby.ts), and a radius the event's own point sits on.
    await p.same(`/api/v1/events/nearby?lat=${lat}&lng=${lng}&radius_km=1500&event_type=earthquake,flood&limit=30`);
    await p.same(
      `/api/v1/events/nearby?lat=${lat}&lng=${lng}&radius_km=1500&since=2020-07-06T00:00:00Z&status=monitoring`,
    );
    await p.same(`/api/v1/events/nearby?lat=${lat}&lng=${lng}&radius_km=0.001&limit=1`);
  }
  // Near a pole, across the antimeridian, the largest radius, and deep offsets into a dense cluster.
  for (const [lat, lng] of [
    [89.9, 0],
    [-89.9, 45],
    [52, 179.95],
    [-15, -179.9],
    [0, 0],
  ])
    await p.same(`/api/v1/events/nearby?lat=${lat}&lng=${lng}&radius_km=2000&limit=50`);
  await walk(p, '/api/v1/events/nearby?lat=36&lng=-118&radius_km=2000&limit=137');
  for (const key of ['no-such-event', '00000000-0000-0000-0000-000000000000', 'É-unknown'])
    await p.same(`/api/v1/events/${encodeURIComponent(key)}`);
  return all.length;
}

describe('the live index answers as the store does', () => {
  let week: Pair;
  beforeAll(async () => {
    week = await pairOn(await weekStore(), WEEK_NOW);
  });
  afterAll(() => week.close());

  it('on the USGS week: every listing, page, key and radius the same bytes, with no store query', async () => {
    const n = await compareEverything(week);
    expect(n).toBeGreaterThan(1000);
    const before = week.queries();
    await week.same('/api/v1/events/live?event_type=earthquake&bbox=-125,32,-114,42&limit=5');
    await week.same('/api/v1/events/nearby?lat=35.77&lng=-117.6&radius_km=250');
    expect(week.queries()).toBe(before);
  }, 120_000); // every listing of 3,209 quakes, compared: 37 s on a loaded machine

  it('after an ingest the previous snapshot answers until the rebuilt one is in, which answers the ingest from memory', async () => {
    const live = async () => (await week.same('/api/v1/events/live?limit=1')).numberMatched as number;
    const ctx: Context = {
      config: defaultConfig(),
      db: week.store,
      clock: () => new Date('2020-07-09T21:00:00Z'),
      log: () => {},
      progress: () => {},
    };
    // A later feed (2022) read at a later clock adds events; at the index's own clock they are not known yet.
    week.now.iso = '2022-09-29T03:32:09Z';
    const countBefore = await live();
    const builds = week.index.builds;
    const before = week.index.at(Date.parse(week.now.iso) * 1000)!;
    await ingestSource(
      { ...ctx, clock: () => new Date(week.now.iso) },
      usgsEarthquakes,
      sharedData('feeds/usgs_earthquakes/all_day.geojson'),
    );
    const swapped = week.index.invalidate();
    // Until the rebuild is in, readers get the whole state before the ingest, from memory: never the store's
    // new rows beside the old snapshot's, never a wait for the rebuild.
    expect(week.index.at(Date.parse(week.now.iso) * 1000)).toBe(before);
    await swapped; // what the ingest's caller waits for before it is answered
    expect(week.index.builds).toBe(builds + 1);
    await week.storeChanged();
    const q1 = week.queries();
    const after = await live(); // compared with the store's answer: the ingest is in
    expect(week.queries()).toBe(q1); // memory answered
    expect(after).not.toBe(countBefore);
  });

  it('a re-ingest of the same feed keeps every ETag; a changed event is read again and answers as the store does', async () => {
    const clock = () => new Date(week.now.iso);
    const ctx: Context = { config: defaultConfig(), db: week.store, clock, log: () => {}, progress: () => {} };
    const urls = [
      '/api/v1/events/live?limit=50',
      '/api/v1/events/live?event_type=earthquake&limit=500',
      '/api/v1/events/nearby?lat=38.8&lng=-122.8&radius_km=300',
    ];
    const tags = async () => Promise.all(urls.map((u) => week.etagOf(u)));
    const before = await tags();
    // The feed the previous test ingested, once more: nothing in it is new, so a client's If-None-Match still holds.
    const feed = sharedData('feeds/usgs_earthquakes/all_day.geojson');
    await ingestSource(ctx, usgsEarthquakes, feed);
    await week.storeChanged();
    expect(await tags()).toEqual(before);
    // One event renamed in a newer version: the listings that show it change, and every answer is the store's.
    const doc = JSON.parse(fs.readFileSync(feed, 'utf8'));
    const quake = doc.features.find((f: any) => f.id === 'nc73787051');
    quake.properties.title = 'M 1.0 - 7km WNW of Cobb, CA (revised)';
    quake.properties.updated += 60_000;
    const revised = path.join(tempDir(), 'all_day_revised.geojson');
    fs.writeFileSync(revised, JSON.stringify(doc));
    await ingestSource(ctx, usgsEarthquakes, revised);
    await week.storeChanged();
    expect((await tags())[2]).not.toBe(before[2]);
    const shown = await week.same('/api/v1/events/nc73787051');
    expect(shown.properties.title).toBe('M 1.0 - 7km WNW of Cobb, CA (revised)');
    await compareEverything(week, 10);
  });
});

describe('as the clock moves on from the build', () => {
  let seed: Pair;
  let asOf: string;
  beforeAll(async () => {
    asOf = '2022-09-29T03:32:09Z';
    const db = await seedStore(); // `db seed` at asOf, the seed's instant
    seed = await pairOn(db, asOf);
  });
  afterAll(() => seed.close());

  it('statuses, ended_at, upcoming and order follow now without a rebuild; an earlier now reads the store', async () => {
    const at = (ms: number) => new Date(Date.parse(asOf) + ms).toISOString();
    const statuses = new Set<string>();
    const shown = new Set<string>();
    let keys: string[] = [];
    for (const later of [0, 86_400_000, 30 * 86_400_000]) {
      seed.now.iso = at(later);
      await compareEverything(seed, 8);
      // The events live at the build, asked for by id later on: ended ones come from memory too.
      if (later === 0)
        keys = (await seed.same('/api/v1/events/live?limit=1000')).features
          .map((f: any) => f.id)
          .filter((_: string, i: number) => i % 7 === 0);
      for (const id of keys) shown.add((await seed.same(`/api/v1/events/${id}`)).properties.status);
      const q = seed.queries();
      for (const f of (await seed.same('/api/v1/events/live?limit=1000')).features) statuses.add(f.properties.status);
      await seed.same('/api/v1/events/nearby?lat=30&lng=-90&radius_km=2000&limit=1000');
      expect(seed.queries()).toBe(q); // memory answered
    }
    expect([...statuses].sort()).toEqual(['active', 'monitoring']);
    expect([...shown].sort()).toEqual(['active', 'ended', 'monitoring']);
    expect(seed.index.builds).toBe(1);
    seed.now.iso = at(-3_600_000);
    const q = seed.queries();
    await seed.same('/api/v1/events/live');
    expect(seed.queries()).toBeGreaterThan(q);
  });
});
