/**
 * What the app did before the platform work and still does: registry-driven routes, ETag/304,
 * gzip/br compression, a short cache for public GETs (never shared across tiers or accounts), HEAD;
 * plus CORS for configured browser origins and the health endpoint.
 */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/db.js';
import { freshIp, platform, seededStore, token, type Platform } from './helpers/harness.js';

let db: Store;
let p: Platform;
beforeAll(async () => {
  db = await seededStore();
  p = await platform(db);
});
afterAll(() => db.close());

describe('conditional requests and compression', () => {
  it('answers If-None-Match with 304 and compresses large bodies for clients that accept it', async () => {
    const first = await p.call('/api/v1/events/live?limit=200');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const cond = await p.call('/api/v1/events/live?limit=200', { headers: { 'if-none-match': etag } });
    expect(cond.status).toBe(304);
    expect(cond.body).toBe('');
    for (const [enc, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await p.app.fetch(
        new Request('http://localhost/api/v1/events/live?limit=200', {
          headers: { 'accept-encoding': enc, 'x-forwarded-for': freshIp() },
        }),
      );
      expect(res.headers.get('content-encoding')).toBe(enc);
      expect(JSON.parse(decode(Buffer.from(await res.arrayBuffer())).toString())).toEqual(first.body);
    }
  });

  it('answers HEAD like GET, without a body', async () => {
    const r = await p.call('/api/v1/events/live?limit=1', { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/geo+json');
    expect(r.headers.get('etag')).toBeTruthy();
  });
});

describe('the response cache', () => {
  it('reuses public GET answers, per tier, and forgets them when a POST changes the store', async () => {
    const cached = await platform(db, { cacheTtlMs: 60_000 });
    const a = await cached.call('/api/v1/admin/keys', { token: cached.adminToken }); // admin routes are not cached
    expect(a.status).toBe(200);
    const one = await cached.call('/api/v1/events/live?limit=2');
    const two = await cached.call('/api/v1/events/live?limit=2');
    expect(two.headers.get('etag')).toBe(one.headers.get('etag'));
    const keyCache = (cached.app.cache as unknown as { entries: Map<string, unknown> }).entries;
    expect([...keyCache.keys()]).toEqual(['free|/api/v1/events/live?limit=2']);
    await cached.call('/api/v1/events/live?limit=2', { token: await token('analyst') });
    expect([...keyCache.keys()].sort()).toEqual([
      'analyst|/api/v1/events/live?limit=2',
      'free|/api/v1/events/live?limit=2',
    ]);
    await cached.call('/api/v1/admin/keys', { token: cached.adminToken, body: { name: 'x', tier: 'agency' } });
    expect(keyCache.size).toBe(0);
  });
});

describe('CORS', () => {
  it('is off by default', async () => {
    const r = await p.call('/api/v1/events/live?limit=1', { headers: { origin: 'https://app.example.com' } });
    expect(r.headers.has('access-control-allow-origin')).toBe(false);
  });

  it('allows the configured origins, exposes the rate-limit headers, and answers preflights', async () => {
    const c = await platform(db, { corsOrigins: ['https://app.example.com'] });
    const ok = await c.call('/api/v1/events/live?limit=1', { headers: { origin: 'https://app.example.com' } });
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/X-RateLimit-Remaining.*X-Request-Id/);
    expect(ok.headers.get('vary')).toMatch(/Origin/);
    const other = await c.call('/api/v1/events/live?limit=1', { headers: { origin: 'https://evil.example.com' } });
    expect(other.headers.has('access-control-allow-origin')).toBe(false);
    const pre = await c.call('/api/v1/admin/keys', {
      method: 'OPTIONS',
      headers: {
        origin: 'https://app.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization, content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, OPTIONS');
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/Authorization, Content-Type/);
    const star = await platform(db, { corsOrigins: ['*'] });
    expect(
      (await star.call('/api/v1/events/live?limit=1', { headers: { origin: 'https://any.example.org' } })).headers.get(
        'access-control-allow-origin',
      ),
    ).toBe('*');
  });
});

describe('health', () => {
  it('is served at /healthz and /api/v1/healthz with the store schema version', async () => {
    for (const path of ['/healthz', '/api/v1/healthz']) {
      const r = await p.call(path);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'ok' });
      expect(r.body.schema_version).toBeGreaterThanOrEqual(2);
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
  });
});
