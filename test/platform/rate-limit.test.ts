/**
 * Rate limits (docs/contract.md#limits): a sliding 60 s window on every route, 60 per client address without a
 * credential, 300/600/3000 per agency/analyst/enterprise credential; exact under concurrency; the
 * X-RateLimit-* headers on every response; 429 with Retry-After. Windows run on the real (monotonic)
 * clock, never on CATINTEL_NOW.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../src/http/rate-limit.js';
import { startServer } from '../../src/http/server.js';
import type { Store } from '../../src/store/db.js';
import { responseProblems } from '../http/helpers/openapi.js';
import {
  AUTH,
  apiKey,
  contextOn,
  freshIp,
  platform,
  seededStore,
  token,
  type Platform,
} from '../http/helpers/harness.js';

let db: Store;
beforeAll(async () => {
  db = await seededStore();
});
afterAll(() => db.close());

const n = (h: Headers, name: string) => Number(h.get(name));

describe('the sliding window', () => {
  it('never lets more than the limit through in any 60 s span, and frees slots as requests age out', () => {
    let t = 1_000_000;
    const w = new SlidingWindowLimiter(60_000, () => t);
    for (let i = 0; i < 60; i++) {
      const d = w.hit('ip:a', 60);
      expect(d).toMatchObject({ allowed: true, remaining: 59 - i });
      t += 500; // 60 requests over 30 s
    }
    expect(w.hit('ip:a', 60)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 30 });
    t = 1_000_000 + 60_000; // the first request is exactly 60 s old: it leaves the window
    expect(w.hit('ip:a', 60)).toMatchObject({ allowed: true, remaining: 0 });
    expect(w.hit('ip:a', 60)).toMatchObject({ allowed: false, resetSeconds: 1 });
    t += 499;
    expect(w.hit('ip:a', 60).allowed).toBe(false); // the second is 59.999 s old: still counted
    t += 1;
    expect(w.hit('ip:a', 60).allowed).toBe(true);
    // Refused requests are not counted: hammering does not push the reset away.
    expect(w.hit('ip:b', 1)).toMatchObject({ allowed: true, resetSeconds: 60 });
    t += 10_000;
    for (let i = 0; i < 50; i++) w.hit('ip:b', 1);
    expect(w.hit('ip:b', 1)).toMatchObject({ allowed: false, resetSeconds: 50 });
  });

  it('forgets idle clients', () => {
    let t = 0;
    const w = new SlidingWindowLimiter(60_000, () => t);
    for (let i = 0; i < 100; i++) w.hit(`ip:${i}`, 60);
    expect(w.size).toBe(100);
    t = 61_000;
    w.sweep();
    expect(w.size).toBe(0);
  });
});

describe('200 parallel requests from one client address inside one minute', () => {
  async function burst(send: () => Promise<Response>): Promise<Response[]> {
    return Promise.all(Array.from({ length: 200 }, send));
  }

  function checkBurst(replies: Response[]) {
    const ok = replies.filter((r) => r.status === 200);
    const limited = replies.filter((r) => r.status === 429);
    expect(ok.length).toBe(60);
    expect(limited.length).toBe(140);
    // Each success took one slot: the remaining counts are exactly 59, 58, ..., 0.
    expect(ok.map((r) => n(r.headers, 'x-ratelimit-remaining')).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 60 }, (_, i) => i),
    );
    for (const r of replies) {
      expect(n(r.headers, 'x-ratelimit-limit')).toBe(60);
      expect(n(r.headers, 'x-ratelimit-reset')).toBeGreaterThanOrEqual(1);
      expect(n(r.headers, 'x-ratelimit-reset')).toBeLessThanOrEqual(60);
    }
    for (const r of limited) {
      expect(n(r.headers, 'x-ratelimit-remaining')).toBe(0);
      expect(n(r.headers, 'retry-after')).toBe(n(r.headers, 'x-ratelimit-reset'));
      expect(n(r.headers, 'retry-after')).toBeGreaterThanOrEqual(1);
      expect(r.headers.get('content-type')).toBe('application/problem+json');
    }
  }

  it('in-process: exactly 60 succeed, 140 get 429 with Retry-After, the headers count down', async () => {
    const p = await platform(db, { cacheTtlMs: 0 });
    const ip = freshIp();
    const replies = await burst(() =>
      p.app.fetch(new Request('http://localhost/api/v1/events/live?limit=5', { headers: { 'x-forwarded-for': ip } })),
    );
    checkBurst(replies);
    for (const r of replies.slice(0, 20)) expect(await responseProblems('GET', '/api/v1/events/live', r)).toEqual([]);
    const body = (await replies.find((r) => r.status === 429)!.json()) as { code: string; detail: string };
    expect(body.code).toBe('rate_limited');
    expect(body.detail).toMatch(/60 requests per minute/);
  });

  it('over a real loopback socket, where the address is the peer and X-Forwarded-For is not believed', async () => {
    const server = await startServer({ ctx: contextOn(db), auth: AUTH, host: '127.0.0.1', port: 0 });
    try {
      // Spoofed X-Forwarded-For values do not open new windows without --trust-proxy.
      let i = 0;
      const replies = await burst(() =>
        fetch(`${server.url}/api/v1/events/live?limit=5`, { headers: { 'x-forwarded-for': `203.0.113.${i++ % 250}` } }),
      );
      checkBurst(replies);
      await Promise.all(replies.map((r) => r.arrayBuffer()));
    } finally {
      await server.stop(1000);
    }
  });
});

describe('limits per tier and per credential', () => {
  it('gives each credential its own window with the contract limit', async () => {
    const p = await platform(db);
    const limits: Record<string, number> = {};
    for (const tier of ['agency', 'analyst', 'enterprise'] as const) {
      limits[`jwt ${tier}`] = n(
        (await p.call('/api/v1/events/live?limit=1', { token: await token(tier) })).headers,
        'x-ratelimit-limit',
      );
      limits[`key ${tier}`] = n(
        (await p.call('/api/v1/events/live?limit=1', { token: (await apiKey(db, tier)).key })).headers,
        'x-ratelimit-limit',
      );
    }
    limits.free = n((await p.call('/api/v1/events/live?limit=1')).headers, 'x-ratelimit-limit');
    expect(limits).toEqual({
      free: 60,
      'jwt agency': 300,
      'key agency': 300,
      'jwt analyst': 600,
      'key analyst': 600,
      'jwt enterprise': 3000,
      'key enterprise': 3000,
    });
  });

  it('counts a credential across client addresses, and not against the address', async () => {
    const p = await platform(db, { cacheTtlMs: 0 });
    const agency = await token('agency', { sub: 'busy@county.gov' });
    const replies = await Promise.all(
      Array.from({ length: 301 }, (_, i) =>
        p.app.fetch(
          new Request('http://localhost/api/v1/events/live?limit=1', {
            headers: { authorization: `Bearer ${agency}`, 'x-forwarded-for': `198.51.100.${i % 200}` },
          }),
        ),
      ),
    );
    expect(replies.filter((r) => r.status === 200).length).toBe(300);
    expect(replies.filter((r) => r.status === 429).length).toBe(1);
    // The same account with a fresh token shares the window (per credential subject, not per token string).
    const again = await p.call('/api/v1/events/live?limit=1', {
      token: await token('agency', { sub: 'busy@county.gov' }),
    });
    expect(again.status).toBe(429);
    // The addresses it came from still have their own anonymous windows.
    expect((await p.call('/api/v1/events/live?limit=1', { ip: '198.51.100.7' })).status).toBe(200);
  });

  it('charges a failed credential to the client address', async () => {
    const p = await platform(db);
    const ip = freshIp();
    for (let i = 0; i < 60; i++)
      expect((await p.call('/api/v1/events/live', { ip, token: 'garbage' })).status).toBe(401);
    const r = await p.call('/api/v1/events/live', { ip, token: 'garbage' });
    expect(r.status).toBe(429);
  });
});

describe('headers on every response', () => {
  it('puts X-RateLimit-* and X-Request-Id on successes, errors, unknown paths, 405, 304 and preflights', async () => {
    const p = await platform(db, { corsOrigins: ['https://app.example.com'] });
    const live = await p.call('/api/v1/events/live?limit=1');
    const cases: [string, Parameters<Platform['call']>[1], number][] = [
      ['/api/v1/events/live?limit=1', {}, 200],
      ['/api/v1/events/live?limit=1', { headers: { 'if-none-match': live.headers.get('etag')! } }, 304],
      ['/api/v1/events/live?limit=0', {}, 400],
      ['/api/v1/triggers', {}, 401],
      ['/api/v1/events/00000000-0000-4000-8000-000000000000', {}, 404],
      ['/api/v1/nope', {}, 404],
      ['/', {}, 404],
      ['/api/v1/%zz', {}, 404],
      ['/api/v1/events/live', { method: 'DELETE' }, 405],
      ['/api/v1/events/live', { method: 'HEAD' }, 200],
      [
        '/api/v1/events/live',
        { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET' } },
        204,
      ],
      [
        '/api/v1/admin/keys',
        { token: p.adminToken, raw: 'x'.repeat(2 * 1024 * 1024), contentType: 'application/json' },
        413,
      ],
      [
        '/api/v1/admin/keys',
        { token: p.adminToken, raw: 'name=x', contentType: 'application/x-www-form-urlencoded' },
        415,
      ],
      ['/api/v1/admin/keys', { token: p.adminToken, body: { name: 1 } }, 422],
      ['/api/v1/infrastructure?lat=1&lng=2', {}, 0], // planned today, built later: any status will do
      ['/api/v1/risk/score?lat=1&lng=2', {}, 0],
      ['/healthz', {}, 200],
      ['/api/v1/healthz', {}, 200],
      ['/api/v1/openapi.json', {}, 200],
    ];
    for (const [path, o, status] of cases) {
      const r = await p.call(path, o);
      if (status) expect(r.status, path).toBe(status);
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id'])
        expect(r.headers.has(h), `${h} on ${path} ${status}`).toBe(true);
    }
  });

  it('can be turned off for load tests, and still sends the X-RateLimit headers the contract requires (nothing counted)', async () => {
    const p = await platform(db, { rateLimit: 'off' });
    const ip = freshIp();
    const replies = await Promise.all(Array.from({ length: 150 }, () => p.call('/api/v1/events/live?limit=1', { ip })));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const last = replies[149].headers;
    expect([n(last, 'x-ratelimit-limit'), n(last, 'x-ratelimit-remaining'), n(last, 'x-ratelimit-reset')]).toEqual([
      60, 60, 0,
    ]);
    // Errors too, and a credential reports its tier's limit.
    const { key } = await apiKey(db, 'enterprise');
    const bad = await p.call('/api/v1/triggers', { token: key, body: {} });
    expect(bad.status).toBe(422);
    expect([
      n(bad.headers, 'x-ratelimit-limit'),
      n(bad.headers, 'x-ratelimit-remaining'),
      n(bad.headers, 'x-ratelimit-reset'),
    ]).toEqual([3000, 3000, 0]);
  });

  it('runs on the real clock: the pinned event clock (CATINTEL_NOW) does not move the window', async () => {
    let realMs = 5_000_000;
    const p = await platform(db, { nowMs: () => realMs });
    const ip = freshIp();
    for (let i = 0; i < 60; i++) await p.call('/api/v1/healthz', { ip });
    expect((await p.call('/api/v1/healthz', { ip })).status).toBe(429);
    // ctx.clock is pinned to 2022 the whole time; only real time frees the window.
    realMs += 60_000;
    expect((await p.call('/api/v1/healthz', { ip })).status).toBe(200);
  });
});
