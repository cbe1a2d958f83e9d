/**
 * The event collections in Arrow: `Accept: application/vnd.apache.arrow.stream` on /events/live and
 * /events/nearby (a week of real USGS earthquakes), answered from the store and from the server's live
 * index, read back with apache-arrow and compared with the JSON answer of the same request.
 */
import { tableFromIPC, Type, type Table } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/http/app.js';
import { defaultConfig } from '../src/config/defaults.js';
import type { Context } from '../src/context.js';
import { LiveEventIndex } from '../src/live-index/live-index.js';
import { Store } from '../src/store/db.js';
import { WEEK_NOW, weekStore } from './helpers/store.js';

const ARROW = 'application/vnd.apache.arrow.stream';
let store: Store;
let apps: { name: string; get: (url: string, headers?: Record<string, string>) => Promise<Response> }[];

beforeAll(async () => {
  const dbPath = await weekStore();
  store = await Store.open(dbPath, { holder: 'test' });
  const clock = () => new Date(WEEK_NOW);
  const ctx: Context = { config: defaultConfig({ dbPath }), db: store, clock, log: () => {}, progress: () => {} };
  const index = new LiveEventIndex(store, clock);
  index.invalidate();
  await index.ready();
  const on =
    (app: ReturnType<typeof createApp>) =>
    (url: string, headers: Record<string, string> = {}) =>
      app.fetch(new Request(`http://localhost${url}`, { headers }));
  apps = [
    { name: 'store', get: on(createApp({ ctx, rateLimit: 'off', stream: { tickMs: 0 } })) },
    {
      name: 'live index',
      get: on(createApp({ ctx: { ...ctx, liveIndex: index }, rateLimit: 'off', stream: { tickMs: 0 } })),
    },
  ];
}, 120_000);
afterAll(() => store?.close());

const typeName = (t: Table, name: string) => {
  const f = t.schema.fields.find((x) => x.name === name);
  return f ? `${Type[f.type.typeId]}:${f.type.toString()}` : undefined;
};

/** Every feature of the JSON page equals its Arrow row: same properties, times as instants, the point as WKB. */
function expectSameAsJson(t: Table, body: any): void {
  expect(t.numRows).toBe(body.features.length);
  expect(t.schema.metadata.get('numberMatched')).toBe(String(body.numberMatched));
  expect(t.schema.metadata.get('timeStamp')).toBe(body.timeStamp);
  expect(t.schema.metadata.get('next')).toBe(body.links.find((l: any) => l.rel === 'next')?.href);
  const rows = t.toArray();
  body.features.forEach((f: any, k: number) => {
    const row = rows[k];
    for (const [name, v] of Object.entries(f.properties)) {
      const got = row[name];
      if (name.endsWith('_at'))
        expect(got === null ? null : new Date(Number(got)).toISOString(), `${name} of ${f.id}`).toBe(
          v === null ? null : new Date(v as string).toISOString(),
        );
      else expect(got, `${name} of ${f.id}`).toEqual(v);
    }
    expect([row.longitude, row.latitude]).toEqual(f.geometry.coordinates);
    const wkb = Buffer.from(row.geometry as Uint8Array);
    expect([wkb[0], wkb.readUInt32LE(1), wkb.readDoubleLE(5), wkb.readDoubleLE(13)]).toEqual([
      1,
      1,
      ...f.geometry.coordinates,
    ]);
  });
}

describe('Accept: application/vnd.apache.arrow.stream on the event collections', () => {
  it("/events/live: an Arrow stream with the JSON's field names, real types and values, from the store and from the live index", async () => {
    for (const { name, get } of apps) {
      const url = '/api/v1/events/live?limit=200&event_type=earthquake';
      const res = await get(url, { accept: ARROW });
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type'), name).toBe(ARROW);
      expect(res.headers.get('vary'), name).toMatch(/^Accept, Accept-Encoding/);
      const t = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
      const body = await (await get(url)).json();
      expect(body.features.length).toBe(200);
      expect(t.schema.fields.map((f) => f.name)).toEqual([
        ...Object.keys(body.features[0].properties),
        'longitude',
        'latitude',
        'geometry',
      ]);
      expect(typeName(t, 'id')).toBe('Utf8:Utf8');
      expect(typeName(t, 'started_at')).toBe('Timestamp:Timestamp<MILLISECOND, UTC>');
      expect(typeName(t, 'ended_at')).toBe('Timestamp:Timestamp<MILLISECOND, UTC>');
      expect(typeName(t, 'severity')).toBe('Float:Float64');
      expect(typeName(t, 'upcoming')).toBe('Bool:Bool');
      expect(typeName(t, 'geometry')).toBe('Binary:Binary');
      expect(t.schema.fields.find((f) => f.name === 'geometry')!.metadata.get('ARROW:extension:name')).toBe(
        'geoarrow.wkb',
      );
      expectSameAsJson(t, body);
    }
  });

  it('/events/nearby: the same, with distance_km as float64', async () => {
    for (const { name, get } of apps) {
      const url = '/api/v1/events/nearby?lat=35.77&lng=-117.6&radius_km=300&limit=50';
      const res = await get(url, { accept: `${ARROW}, application/json;q=0.5` });
      expect(res.headers.get('content-type'), name).toBe(ARROW);
      const t = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
      const body = await (await get(url)).json();
      expect(body.features.length).toBeGreaterThan(0);
      expect(typeName(t, 'distance_km')).toBe('Float:Float64');
      expectSameAsJson(t, body);
    }
  });

  it("/events/{id}/rings: one row per ring, the polygon as WKB, the JSON's properties typed", async () => {
    const { get } = apps[0];
    const live = await (await get('/api/v1/events/live?limit=100')).json();
    let rings: any;
    for (const f of live.features) {
      rings = await (await get(`/api/v1/events/${f.id}/rings`)).json();
      if (rings.features.length > 0) break;
    }
    expect(rings.features.length).toBeGreaterThan(0);
    const url = `/api/v1/events/${rings.features[0].properties.event_id}/rings`;
    const res = await get(url, { accept: ARROW });
    expect(res.headers.get('content-type')).toBe(ARROW);
    const t = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
    expect(t.schema.fields.map((f) => f.name)).toEqual([...Object.keys(rings.features[0].properties), 'geometry']);
    expect(typeName(t, 'radius_km')).toBe('Float:Float64');
    expect(typeName(t, 'ingested_at')).toBe('Timestamp:Timestamp<MILLISECOND, UTC>');
    const rows = t.toArray();
    rings.features.forEach((f: any, k: number) => {
      expect(rows[k].ring_id).toBe(f.properties.ring_id);
      expect(rows[k].radius_km).toBe(f.properties.radius_km);
      const wkb = Buffer.from(rows[k].geometry as Uint8Array);
      // Polygon (3) or MultiPolygon (6), little-endian; a polygon's first point is its GeoJSON's first point.
      const type = wkb.readUInt32LE(1);
      expect(type).toBe(f.geometry.type === 'Polygon' ? 3 : 6);
      const first = f.geometry.type === 'Polygon' ? f.geometry.coordinates[0][0] : f.geometry.coordinates[0][0][0];
      const at = type === 3 ? 13 : 22;
      expect([wkb.readDoubleLE(at), wkb.readDoubleLE(at + 8)]).toEqual(first);
    });
  });

  it("the live index builds the page from its columns, not its JSON: the store's Arrow bytes, an ETag of their own", async () => {
    const [store, index] = apps;
    for (const url of [
      '/api/v1/events/live?limit=1000',
      '/api/v1/events/live?limit=7&status=monitoring',
      '/api/v1/events/nearby?lat=35.77&lng=-117.6&radius_km=300&limit=50',
    ]) {
      const fromStore = Buffer.from(await (await store.get(url, { accept: ARROW })).arrayBuffer());
      const res = await index.get(url, { accept: ARROW });
      expect(Buffer.from(await res.arrayBuffer()).equals(fromStore), url).toBe(true);
      const etag = res.headers.get('etag')!;
      expect(etag, url).not.toBe((await index.get(url)).headers.get('etag'));
      expect((await index.get(url, { accept: ARROW, 'if-none-match': etag })).status, url).toBe(304);
    }
  });

  it('OGC API items (/collections/{id}/items): the events and the rings collections as Arrow, the JSON page typed, next absolute as in the JSON', async () => {
    const { get } = apps[0];
    for (const collection of ['events', 'rings']) {
      const url = `/api/v1/collections/${collection}/items?limit=20`;
      const res = await get(url, { accept: ARROW });
      expect(res.headers.get('content-type'), collection).toBe(ARROW);
      const t = tableFromIPC(new Uint8Array(await res.arrayBuffer()));
      const body = await (await get(url)).json();
      expect(body.features.length, collection).toBeGreaterThan(0);
      expect(t.numRows).toBe(body.features.length);
      const points = collection === 'events' ? ['longitude', 'latitude'] : [];
      expect(t.schema.fields.map((f) => f.name)).toEqual([
        ...Object.keys(body.features[0].properties),
        ...points,
        'geometry',
      ]);
      expect(t.schema.fields.find((f) => f.name === 'geometry')!.metadata.get('ARROW:extension:metadata')).toBe(
        '{"crs":"OGC:CRS84"}',
      );
      expect(typeName(t, 'ingested_at')).toBe('Timestamp:Timestamp<MILLISECOND, UTC>');
      expect(t.schema.metadata.get('next')).toBe(body.links.find((l: any) => l.rel === 'next')?.href);
      expect(t.schema.metadata.get('next')).toMatch(/^http:\/\/localhost\/api\/v1\/collections\//);
      if (collection === 'events') expectSameAsJson(t, body);
      else {
        expect(typeName(t, 'threshold')).toBe('Float:Float64');
        const rows = t.toArray();
        body.features.forEach((f: any, k: number) => {
          for (const [name, v] of Object.entries(f.properties))
            if (name !== 'ingested_at') expect(rows[k][name], `${name} of ${f.id}`).toEqual(v);
          expect(new Date(Number(rows[k].ingested_at)).toISOString()).toBe(
            new Date(f.properties.ingested_at).toISOString(),
          );
          expect(Buffer.from(rows[k].geometry as Uint8Array).readUInt32LE(1)).toBe(
            f.geometry.type === 'Polygon' ? 3 : 6,
          );
        });
      }
    }
    // An empty page keeps its collection's columns: a ring has no point columns.
    const empty = await get('/api/v1/collections/rings/items?bbox=0,0,0.001,0.001', { accept: ARROW });
    const t = tableFromIPC(new Uint8Array(await empty.arrayBuffer()));
    expect(t.numRows).toBe(0);
    expect(t.schema.fields.map((f) => f.name)).toContain('event_title');
    expect(t.schema.fields.map((f) => f.name)).not.toContain('longitude');
  });

  it('JSON stays the default: no Accept, */*, a JSON type preferred, or a type we do not serve answer JSON as before', async () => {
    const { get } = apps[0];
    for (const accept of [undefined, '*/*', 'text/csv', `application/geo+json, ${ARROW};q=0.5`, `${ARROW};q=0`]) {
      const res = await get('/api/v1/events/live?limit=5', accept ? { accept } : {});
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-type'), accept).toBe('application/geo+json');
      expect((await res.json()).features).toHaveLength(5);
    }
  });
});
