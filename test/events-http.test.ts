/** The four event endpoints over HTTP, as a client sees them (docs/contract.md#events). */
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appOn, weekStore, WEEK_NOW } from './helpers/store.js';

let server: Awaited<ReturnType<typeof appOn>>;
beforeAll(async () => {
  server = await appOn(await weekStore(), WEEK_NOW);
});
afterAll(() => server.close());

const json = async (url: string) => {
  const res = await server.get(url);
  return { res, body: (await res.json()) as any };
};

describe('GET /api/v1/events/live', () => {
  it('is an OGC API - Features collection of active and monitoring events, newest first', async () => {
    const { res, body } = await json('/api/v1/events/live?limit=50');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/geo+json');
    expect(body).toMatchObject({
      type: 'FeatureCollection',
      numberReturned: 50,
      timeStamp: '2020-07-08T21:00:00.000Z',
    });
    expect(body.numberMatched).toBeGreaterThan(1000);
    expect(body.links.map((l: any) => l.rel)).toEqual(['self', 'next']);
    // Newest first = the time each event last changed (docs/lifecycle.md): here the later of origin and USGS update.
    const changed = body.features.map((f: any) => [f.properties.started_at, f.properties.updated_at].sort()[1]);
    expect([...changed].sort().reverse()).toEqual(changed);
    for (const f of body.features) {
      expect(['active', 'monitoring']).toContain(f.properties.status);
      expect(f.geometry.type).toBe('Point');
      expect(f.properties.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(f.properties).toHaveProperty('ingested_at');
      expect(f.properties.ended_at).toBeNull();
      expect(f.properties.source).toBe('usgs-earthquakes');
      expect(f.properties.source_url).toMatch(/^https:\/\/earthquake\.usgs\.gov\//);
    }
  });

  it('walks every matched event exactly once by following links.next', async () => {
    let url: string | undefined = '/api/v1/events/live?limit=1000';
    const seen = new Set<string>();
    let matched = 0;
    while (url) {
      const { body } = await json(url);
      matched = body.numberMatched;
      for (const f of body.features) seen.add(f.properties.id);
      url = body.links.find((l: any) => l.rel === 'next')?.href;
    }
    expect(seen.size).toBe(matched);
  });

  it('filters by status, event_type, bbox and since', async () => {
    const active = (await json('/api/v1/events/live?status=active&limit=1000')).body;
    expect(active.features.every((f: any) => f.properties.status === 'active')).toBe(true);
    // Quakes are active for 24 h after origin: only those after 2020-07-07T21:00Z.
    expect(active.features.every((f: any) => f.properties.started_at >= '2020-07-07T21:00:00Z')).toBe(true);
    const none = (await json('/api/v1/events/live?event_type=hurricane')).body;
    expect(none.numberMatched).toBe(0);
    const ca = (await json('/api/v1/events/live?bbox=-125,32,-114,42&limit=1000')).body;
    for (const f of ca.features) {
      const [lng, lat] = f.geometry.coordinates;
      expect(lng >= -125 && lng <= -114 && lat >= 32 && lat <= 42).toBe(true);
    }
    expect(ca.numberMatched).toBeGreaterThan(100);
  });

  it('answers bad parameters with problem+json naming the parameter', async () => {
    for (const [q, field] of [
      ['limit=0', 'limit'],
      ['limit=5000', 'limit'],
      ['bbox=1,2,3', 'bbox'],
      ['event_type=meteor', 'event_type'],
      ['status=ended', 'status'],
      ['cursor=zzz', 'cursor'],
      ['since=yesterday', 'since'],
    ]) {
      const { res, body } = await json(`/api/v1/events/live?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(body).toMatchObject({ status: 400, code: 'invalid_parameter', errors: [{ field }] });
      expect(body.detail).toContain(field);
    }
  });

  it('sends an ETag and answers If-None-Match with 304', async () => {
    const first = await server.get('/api/v1/events/live?limit=5');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await server.get('/api/v1/events/live?limit=5', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('compresses large bodies with br or gzip when accepted', async () => {
    const plain = await server.get('/api/v1/events/live?limit=200');
    const raw = Buffer.from(await plain.arrayBuffer());
    const br = await server.get('/api/v1/events/live?limit=200', { 'accept-encoding': 'gzip, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brBytes.length).toBeLessThan(raw.length / 3);
    expect(brotliDecompressSync(brBytes).equals(raw)).toBe(true);
    const gz = await server.get('/api/v1/events/live?limit=200', { 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(raw)).toBe(true);
  });
});

describe('GET /api/v1/events/{id}, /rings, /nearby', () => {
  it('finds an event by UUID and by slug, with details and observations', async () => {
    const first = (await json('/api/v1/events/live?limit=1')).body.features[0].properties;
    const byId = (await json(`/api/v1/events/${first.id}`)).body;
    const bySlug = (await json(`/api/v1/events/${first.slug}`)).body;
    expect(bySlug).toEqual(byId);
    expect(byId.properties).toMatchObject({ id: first.id, slug: first.slug });
    expect(byId.properties.details).toHaveProperty('depth_km');
    expect(byId.properties.observations[0]).toMatchObject({ kind: 'magnitude', unit: expect.any(String) });
  });

  it('answers an unknown id with 404 problem+json', async () => {
    const { res, body } = await json('/api/v1/events/00000000-0000-0000-0000-000000000000');
    expect(res.status).toBe(404);
    expect(body).toMatchObject({ code: 'not_found', status: 404 });
  });

  it('serves rings as valid closed counter-clockwise polygons, outermost last', async () => {
    // The largest shallow quake of the week (a deep one, like the M6.6 500+ km under the Java Sea,
    // shakes nothing strongly at the surface and has no rings).
    const quakes = (await allLive()).sort((a: any, b: any) => b.properties.severity - a.properties.severity);
    let big: any;
    for (const q of quakes) {
      if ((await json(`/api/v1/events/${q.properties.id}`)).body.properties.details.depth_km < 70) {
        big = q;
        break;
      }
    }
    expect(big.properties.severity).toBeGreaterThan(5);
    const rings = (await json(`/api/v1/events/${big.properties.id}/rings`)).body;
    expect(rings.type).toBe('FeatureCollection');
    expect(rings.features.length).toBeGreaterThan(0);
    const radii = rings.features.map((f: any) => f.properties.radius_km);
    expect([...radii].sort((a, b) => a - b)).toEqual(radii);
    for (const f of rings.features) {
      expect(f.properties).toMatchObject({ event_id: big.properties.id, kind: 'mmi', unit: 'MMI' });
      const ring = f.geometry.coordinates[0];
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      expect(signedArea(ring)).toBeGreaterThan(0); // counter-clockwise
    }
  });

  it('lists nearby events sorted by distance, within the radius', async () => {
    const { body } = await json('/api/v1/events/nearby?lat=35.77&lng=-117.6&radius_km=100&limit=1000');
    expect(body.numberMatched).toBeGreaterThan(10);
    const d = body.features.map((f: any) => f.properties.distance_km);
    expect([...d].sort((a, b) => a - b)).toEqual(d);
    expect(Math.max(...d)).toBeLessThanOrEqual(100);
    const { res } = await json('/api/v1/events/nearby?lat=95&lng=0');
    expect(res.status).toBe(400);
    const missing = await json('/api/v1/events/nearby?lng=0');
    expect(missing.body.errors[0].field).toBe('lat');
  });
});

async function allLive(): Promise<any[]> {
  const out: any[] = [];
  let url: string | undefined = '/api/v1/events/live?limit=1000';
  while (url) {
    const { body } = await json(url);
    out.push(...body.features);
    url = body.links.find((l: any) => l.rel === 'next')?.href;
  }
  return out;
}

/** Shoelace area in degrees²: positive for a counter-clockwise ring. */
function signedArea(ring: number[][]): number {
  let a = 0;
  for (let i = 0; i < ring.length - 1; i++) a += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return a / 2;
}
