/**
 * OGC API - Features (OGC 17-069r4) beside the contract paths, on the embedded default (Ian, NWS alerts,
 * earthquakes, gauges) at its instant: what a GIS client follows from the landing page, and that the
 * collections hold exactly what /events/live and /events/{id}/rings serve. Every response is checked against
 * openapi.yaml by the harness. (scripts/conformance-gdal.sh reads the same service with GDAL itself.)
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config/defaults.js';
import { createApp, type App } from '../../src/http/app.js';
import { Store } from '../../src/store/db.js';
import { seedStore } from '../helpers/store.js';
import { REPO_ROOT } from '../helpers/paths.js';
import { call, type CallOptions } from './helpers/harness.js';

const AS_OF = fs.readFileSync(path.join(REPO_ROOT, 'data/seed/as-of.txt'), 'utf8').trim();
const ORIGIN = 'http://localhost';

let db: Store;
let app: App;
const get = (p: string, o: CallOptions = {}) => call(app, p.startsWith(ORIGIN) ? p.slice(ORIGIN.length) : p, o, false);

/** Every feature of a listing, following its next links as a client does. */
async function all(first: string): Promise<{ matched: number; features: any[]; pages: number }> {
  let url: string | undefined = first;
  const features: any[] = [];
  let matched = -1;
  let pages = 0;
  while (url) {
    const r = await get(url);
    expect(r.status, url).toBe(200);
    if (matched < 0) matched = r.body.numberMatched;
    expect(r.body.numberReturned).toBe(r.body.features.length);
    features.push(...r.body.features);
    pages++;
    url = r.body.links.find((l: any) => l.rel === 'next')?.href;
  }
  return { matched, features, pages };
}

beforeAll(async () => {
  const file = await seedStore(); // `db seed` at AS_OF, the seed's instant
  db = await Store.open(file, { holder: 'test' });
  app = createApp({
    ctx: {
      config: defaultConfig({ dbPath: file }),
      db,
      clock: () => new Date(AS_OF),
      log: () => {},
      progress: () => {},
    },
    rateLimit: 'off',
  });
}, 60_000);
afterAll(() => db?.close());

describe('a GIS client starting at the landing page', () => {
  it('finds the conformance classes, the collections and the API definition, as absolute links', async () => {
    const landing = (await get('/api/v1/')).body;
    const byRel = Object.fromEntries(landing.links.map((l: any) => [l.rel, l]));
    expect(byRel.conformance.href).toBe(`${ORIGIN}/api/v1/conformance`);
    expect(byRel.data.href).toBe(`${ORIGIN}/api/v1/collections`);
    expect(byRel['service-desc'].href).toBe(`${ORIGIN}/api/v1/openapi.json`);
    // GDAL 3.6 appends a root-relative href to the service URL; every link here is absolute.
    for (const l of landing.links) expect(l.href.startsWith(`${ORIGIN}/api/v1`), l.href).toBe(true);

    const conformance = (await get(byRel.conformance.href)).body;
    expect(conformance.conformsTo).toEqual(
      expect.arrayContaining([
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core',
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson',
        'http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/oas30',
      ]),
    );
  });

  it('lists the events and rings collections with extents, CRS84 and items links', async () => {
    const r = await get('/api/v1/collections');
    expect(r.headers.get('content-type')).toBe('application/json');
    expect(r.body.collections.map((c: any) => c.id)).toEqual(['events', 'rings']);
    for (const c of r.body.collections) {
      expect(c.itemType).toBe('feature');
      expect(c.crs).toEqual(['http://www.opengis.net/def/crs/OGC/1.3/CRS84']);
      const [minLng, minLat, maxLng, maxLat] = c.extent.spatial.bbox[0];
      expect(minLng).toBeLessThan(maxLng);
      expect(minLat).toBeLessThan(maxLat);
      expect(c.extent.temporal.interval[0][1]).toBeNull(); // live: open at its end
      const items = c.links.find((l: any) => l.rel === 'items');
      expect(items).toMatchObject({ href: `${ORIGIN}/api/v1/collections/${c.id}/items`, type: 'application/geo+json' });
      expect((await get(`/api/v1/collections/${c.id}`)).body).toEqual(c);
    }
    // Ian's wind radii lie inside the rings' extent.
    const rings = r.body.collections[1].extent.spatial.bbox[0];
    expect(rings[0]).toBeLessThan(-82);
    expect(rings[2]).toBeGreaterThan(-82);
  });

  it('behind a trusted proxy, links name the host the client called', async () => {
    const proxied = createApp({
      ctx: {
        config: defaultConfig({ dbPath: ':memory:' }),
        db,
        clock: () => new Date(AS_OF),
        log: () => {},
        progress: () => {},
      },
      rateLimit: 'off',
      trustProxy: 1,
    });
    const r = await call(
      proxied,
      '/api/v1/collections',
      { headers: { 'x-forwarded-host': 'gis.example.com', 'x-forwarded-proto': 'https' } },
      false,
    );
    expect(r.body.links[0].href).toBe('https://gis.example.com/api/v1/collections');
    // A forged host is not believed without --trust-proxy.
    const direct = await get('/api/v1/collections', { headers: { 'x-forwarded-host': 'evil.example.com' } });
    expect(direct.body.links[0].href).toBe(`${ORIGIN}/api/v1/collections`);
  });
});

describe('the collections hold what the contract paths serve', () => {
  it('events: every live event, in the order of /events/live, paged by next links', async () => {
    const live = await all('/api/v1/events/live?limit=1000');
    const items = await all('/api/v1/collections/events/items?limit=100');
    expect(live.matched).toBeGreaterThan(300);
    expect(items.matched).toBe(live.matched);
    expect(items.pages).toBe(Math.ceil(live.matched / 100));
    expect(items.features).toEqual(live.features);
  });

  it('rings: one feature per ring of the live events, with its event type and title', async () => {
    const live = await all('/api/v1/events/live?limit=1000');
    const expected = new Map<string, any>();
    for (const e of live.features)
      for (const ring of (await get(`/api/v1/events/${e.id}/rings`)).body.features) expected.set(ring.id, { ring, e });
    const items = await all('/api/v1/collections/rings/items?limit=50');
    expect(expected.size).toBeGreaterThan(100);
    expect(items.matched).toBe(expected.size);
    expect(items.features.map((f: any) => f.id).sort()).toEqual([...expected.keys()].sort());
    for (const f of items.features) {
      const { ring, e } = expected.get(f.id);
      expect(f.geometry).toEqual(ring.geometry);
      expect(f.properties).toEqual({
        ...ring.properties,
        event_type: e.properties.event_type,
        event_title: e.properties.title,
      });
    }
  });

  it('one feature by id, with links to itself and its collection; a feature not in the collection is 404', async () => {
    const ev = (await get('/api/v1/collections/events/items?limit=1')).body.features[0];
    const one = await get(`/api/v1/collections/events/items/${ev.id}`);
    expect(one.headers.get('content-type')).toBe('application/geo+json');
    expect(one.body).toMatchObject({
      ...ev,
      links: [{ rel: 'self', href: `${ORIGIN}/api/v1/collections/events/items/${ev.id}` }, { rel: 'collection' }],
    });
    const ring = (await get('/api/v1/collections/rings/items?limit=1')).body.features[0];
    expect((await get(`/api/v1/collections/rings/items/${ring.id}`)).body).toMatchObject(ring);
    // An event id is not a ring id, and the other way round.
    expect((await get(`/api/v1/collections/rings/items/${ev.id}`)).status).toBe(404);
    expect((await get(`/api/v1/collections/events/items/${ring.id}`)).status).toBe(404);
  });
});

describe('items parameters (OGC 17-069r4 §7.15)', () => {
  it('bbox selects events by position and rings by their own extent', async () => {
    // Florida's Gulf coast: Ian at landfall. Its rings reach it; its centre may lie outside a small box.
    const box = '-82.5,26.0,-81.5,27.0';
    const rings = await all(`/api/v1/collections/rings/items?bbox=${box}&limit=1000`);
    expect(rings.features.some((f: any) => f.properties.event_type === 'hurricane')).toBe(true);
    for (const f of rings.features) {
      const coords = JSON.stringify(f.geometry.coordinates)
        .match(/-?\d+(\.\d+)?/g)!
        .map(Number);
      const lng = coords.filter((_, i) => i % 2 === 0);
      const lat = coords.filter((_, i) => i % 2 === 1);
      expect(Math.min(...lng)).toBeLessThanOrEqual(-81.5);
      expect(Math.max(...lng)).toBeGreaterThanOrEqual(-82.5);
      expect(Math.min(...lat)).toBeLessThanOrEqual(27.0);
      expect(Math.max(...lat)).toBeGreaterThanOrEqual(26.0);
    }
    const events = await all(`/api/v1/collections/events/items?bbox=-125,32,-114,42&limit=1000`);
    const live = await all('/api/v1/events/live?bbox=-125,32,-114,42&limit=1000');
    expect(events.features).toEqual(live.features);
  });

  it('datetime: an instant or interval meets an event from its start until it ends (open while live)', async () => {
    const live = await all('/api/v1/collections/events/items?limit=1000');
    const everything = live.matched;
    // Announced alerts (an onset still ahead: upcoming) have not started at the clock.
    const underWay = live.features.filter((f: any) => !f.properties.upcoming).length;
    expect(underWay).toBeLessThan(everything);
    const n = async (q: string) => {
      const r = await get(`/api/v1/collections/events/items?limit=1&datetime=${encodeURIComponent(q)}`);
      expect(r.status, q).toBe(200);
      return r.body.numberMatched as number;
    };
    expect(await n('2000-01-01T00:00:00Z')).toBe(0); // before every start
    expect(await n(AS_OF)).toBe(underWay); // under way at the clock
    expect(await n(`${AS_OF}/..`)).toBe(everything);
    // Beyond year 9999 once its offset applies: read as the latest instant SQL stores, not a server error.
    expect(await n('9999-12-31T23:59:59-23:59')).toBe(everything);
    expect(await n('../2000-01-01T00:00:00Z')).toBe(0);
    const early = await n('../2022-09-28T12:00:00Z');
    expect(early).toBeGreaterThan(1);
    expect(early).toBeLessThan(everything);
    // The next link keeps the filter.
    const r = await get('/api/v1/collections/events/items?limit=1&datetime=../2022-09-28T12:00:00Z');
    expect(decodeURIComponent(r.body.links.find((l: any) => l.rel === 'next').href)).toContain(
      'datetime=../2022-09-28T12:00:00Z',
    );
  });

  it('refuses a malformed or reversed datetime by name; reads a limit above 1000 as 1000', async () => {
    for (const bad of ['yesterday', '2022-09-30T00:00:00Z/2022-09-01T00:00:00Z']) {
      const r = await get(`/api/v1/collections/events/items?datetime=${encodeURIComponent(bad)}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.errors[0].field).toBe('datetime');
    }
    const r = await get('/api/v1/collections/events/items?limit=5000');
    expect(r.status).toBe(200);
    expect(r.body.numberReturned).toBe(Math.min(1000, r.body.numberMatched));
    expect(r.body.links.find((l: any) => l.rel === 'self').href).toContain('limit=1000');
  });

  it('an unknown collection is 404 problem+json naming the collections', async () => {
    for (const p of [
      '/api/v1/collections/quakes',
      '/api/v1/collections/quakes/items',
      '/api/v1/collections/quakes/items/x',
    ]) {
      const r = await get(p);
      expect(r.status, p).toBe(404);
      expect(r.headers.get('content-type')).toBe('application/problem+json');
      expect(r.body.detail).toContain('events, rings');
    }
  });
});
