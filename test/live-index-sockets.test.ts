/**
 * The live index's bodies over real sockets, many requests in flight at once: each body is written into
 * slab memory that is used again once the response has been written out (src/live-index/slabs.ts). Every
 * answer must be the bytes the same URL gives alone, and the slabs must in fact be reused.
 */
import net from 'node:net';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from 'h3';
import { createApp } from '../src/http/app.js';
import { defaultConfig } from '../src/config/defaults.js';
import type { Context } from '../src/context.js';
import { LiveEventIndex } from '../src/live-index/live-index.js';
import { slabCounts } from '../src/live-index/slabs.js';
import { Store } from '../src/store/db.js';
import { mulberry32 } from '../src/lib/random.js';
import { weekStore, WEEK_NOW } from './helpers/store.js';

let store: Store;
let server: ReturnType<typeof serve>;
let origin: string;
let port: number;

beforeAll(async () => {
  const dbPath = await weekStore();
  store = await Store.open(dbPath, { holder: 'test' });
  const clock = () => new Date(WEEK_NOW);
  const ctx: Context = { config: defaultConfig({ dbPath }), db: store, clock, log: () => {}, progress: () => {} };
  ctx.liveIndex = new LiveEventIndex(store, clock);
  ctx.liveIndex.invalidate();
  await ctx.liveIndex.ready();
  server = serve(createApp({ ctx, rateLimit: 'off', cacheTtlMs: 0, stream: { tickMs: 0 } }).h3, {
    port: 0,
    hostname: '127.0.0.1',
    silent: true,
  });
  await server.ready();
  origin = new URL(server.url!).origin;
  port = Number(new URL(server.url!).port);
}, 120_000);

afterAll(async () => {
  await server?.close(true);
  await store?.close();
});

/** Seeded listings and radius searches around the week's events: bodies from a few hundred bytes to tens of KB. */
async function urls(): Promise<string[]> {
  const r = mulberry32(7);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const events = (await (await fetch(`${origin}/api/v1/events/live?limit=1000`)).json()).features as {
    geometry: { coordinates: [number, number] };
  }[];
  const out: string[] = [];
  for (let k = 0; k < 120; k++) {
    const [lng, lat] = pick(events).geometry.coordinates;
    const w = pick([1, 5, 20]);
    out.push(
      `/api/v1/events/live?limit=${pick([5, 50, 200])}&bbox=${lng - w},${Math.max(-90, lat - w)},${lng + w},${Math.min(90, lat + w)}`,
    );
    out.push(`/api/v1/events/nearby?lat=${lat}&lng=${lng}&radius_km=${pick([50, 300, 1000])}&limit=${pick([10, 100])}`);
  }
  return out;
}

/**
 * `paths` sent at once on one connection whose reader then waits while `meanwhile` runs: the server's
 * writes back up (the kernel's buffers fill), so later bodies wait inside the server, still in their slabs,
 * while other requests are served. Then every response is read: their bodies, in order.
 */
async function slowReader(paths: string[], meanwhile: () => Promise<void>): Promise<string[]> {
  const socket = net.connect(port, '127.0.0.1');
  await once(socket, 'connect');
  socket.pause();
  socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: test\r\nAccept-Encoding: identity\r\n\r\n`).join(''));
  await meanwhile();
  let pending = Buffer.alloc(0);
  const bodies: string[] = [];
  socket.on('data', (d: Buffer) => {
    pending = Buffer.concat([pending, d]);
    for (;;) {
      const end = pending.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(pending.subarray(0, end).toString('latin1'))?.[1]);
      if (pending.length < end + 4 + length) return;
      bodies.push(pending.subarray(end + 4, end + 4 + length).toString());
      pending = pending.subarray(end + 4 + length);
      if (bodies.length === paths.length) socket.end();
    }
  });
  socket.resume();
  await once(socket, 'close');
  return bodies;
}

describe('live index bodies under concurrent requests', () => {
  it('every response is the bytes its URL gives alone, while slab memory is reused', async () => {
    const list = await urls();
    // Uncompressed, as most load tools ask: then the carved bytes themselves are what the socket sends.
    const get = async (u: string, encoding = 'identity') =>
      (await fetch(origin + u, { headers: { 'accept-encoding': encoding } })).text();
    const alone = new Map<string, string>();
    for (const u of list) alone.set(u, await get(u));
    const before = slabCounts();
    let bytes = 0;
    for (const encoding of ['identity', 'identity', 'identity', 'gzip, br']) {
      // All in flight together: a slab reused before its bodies were written out would show here as wrong bytes.
      const bodies = await Promise.all(list.map(async (u) => [u, await get(u, encoding)] as const));
      for (const [u, body] of bodies) {
        expect(body.length, u).toBe(alone.get(u)!.length);
        expect(body === alone.get(u), u).toBe(true);
        bytes += body.length;
      }
    }
    // Bodies held up behind a reader that does not read, while the same slabs serve others.
    const held = list.filter((u) => u.includes('/live?limit=200'));
    expect(held.length).toBeGreaterThan(5);
    const concurrent = async () => {
      for (let k = 0; k < 3; k++) {
        const bodies = await Promise.all(list.map(async (u) => [u, await get(u)] as const));
        for (const [u, body] of bodies) expect(body === alone.get(u), u).toBe(true);
      }
    };
    const late = await slowReader(held, concurrent);
    expect(late.length).toBe(held.length);
    late.forEach((body, k) => expect(body === alone.get(held[k]), held[k]).toBe(true));

    expect(bytes).toBeGreaterThan(20 * 1024 * 1024);
    // Slabs went round again (a slab holds 256 KiB: tens of MB served in a few dozen of them).
    const after = slabCounts();
    expect(after.reused - before.reused).toBeGreaterThan(20);
  }, 120_000);
});
