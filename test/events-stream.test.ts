/**
 * GET /events/stream as a client sees it: a real server on a loopback port over a store filled from the real
 * USGS week sample, replayed by moving the server's clock (events become known, age to monitoring and end)
 * and by ingesting a revised version of one quake (an update with new rings). A client that disconnects and
 * reconnects with Last-Event-ID misses nothing: the live set it rebuilds from the messages is /events/live's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/defaults.js';
import type { Context } from '../src/context.js';
import { startServer, type RunningServer } from '../src/http/server.js';
import { ingestSource } from '../src/ingest/run.js';
import { usgsEarthquakes } from '../src/sources/usgs-earthquakes.js';
import { Store } from '../src/store/db.js';
import { readSse, SseParser, type SseEvent } from '../src/stream/sse-client.js';
import { HANDLERS } from '../src/handlers/registry.js';
import { ChangeFeed } from '../src/stream/feed.js';
import { sseStream } from '../src/stream/sse.js';
import { SignJWT } from 'jose';
import { tempDir } from './helpers/cli.js';
import { sharedData } from './helpers/paths.js';
import { WEEK_NOW, weekStore } from './helpers/store.js';

const WEEK = sharedData('feeds/usgs_earthquakes/all_week.geojson');
let clock = '2020-07-03T00:00:00Z';
let db: Store;
let ctx: Context;
let server: RunningServer;

beforeAll(async () => {
  // The week sample ingested at WEEK_NOW: a copy of the store the run built once (test/helpers/store.ts).
  const dbPath = await weekStore();
  db = await Store.open(dbPath);
  ctx = {
    config: defaultConfig({ dbPath }),
    db,
    clock: () => new Date(clock),
    log: () => {},
    progress: () => {},
  };
  server = await startServer({
    ctx,
    host: '127.0.0.1',
    port: 0,
    rateLimit: 'off',
    stream: { heartbeatMs: 100, tickMs: 0 },
  });
});
afterAll(async () => {
  await server?.stop(1000);
  await db?.close();
});

/** What `catintel serve` does after every store change (its storeChanged() hook). */
async function storeChanged(): Promise<void> {
  server.app.cache.invalidate();
  await server.app.changes.refresh();
}

interface Client {
  messages: SseEvent[];
  comments: number;
  parser: SseParser;
  res: Response;
  done: Promise<void>;
  abort(): void;
}

async function connect(query = '', headers: Record<string, string> = {}): Promise<Client> {
  const abort = new AbortController();
  const res = await fetch(`${server.url}/api/v1/events/stream${query}`, { headers, signal: abort.signal });
  const parser = new SseParser();
  const c: Client = { messages: [], comments: 0, parser, res, done: Promise.resolve(), abort: () => abort.abort() };
  if (!res.ok) return c;
  c.done = (async () => {
    const decoder = new TextDecoder();
    const reader = res.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        const text = decoder.decode(value, { stream: true });
        c.comments += (text.match(/^: heartbeat/gm) ?? []).length;
        c.messages.push(...parser.push(text));
      }
    } catch {
      /* aborted by the test */
    }
  })();
  return c;
}

async function until(what: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting for the stream');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const data = (m: SseEvent) => JSON.parse(m.data);
const opened = (c: Client, n = 1) => until(() => c.messages.filter((m) => m.event === 'stream.open').length >= n);

async function liveNow(): Promise<Map<string, { status: string; updated_at: string }>> {
  const out = new Map<string, { status: string; updated_at: string }>();
  for (let url: string | undefined = '/api/v1/events/live?limit=1000'; url;) {
    const body = await (await fetch(`${server.url}${url}`)).json();
    for (const f of body.features)
      out.set(f.properties.id, { status: f.properties.status, updated_at: f.properties.updated_at });
    url = body.links.find((l: any) => l.rel === 'next')?.href;
  }
  return out;
}

/** A client's picture of the live set: the /events/live it read first, then every message applied. */
function apply(state: Map<string, { status: string; updated_at: string }>, messages: SseEvent[]): void {
  for (const m of messages) {
    const d = data(m);
    if (m.event === 'event.new' || m.event === 'event.updated' || m.event === 'event.snapshot')
      state.set(d.event.properties.id, {
        status: d.event.properties.status,
        updated_at: d.event.properties.updated_at,
      });
    if (m.event === 'event.ended') state.delete(d.event.properties.id);
  }
}

/** The week's sample with one quake revised by its network: a larger magnitude, a minute later. */
function revisedWeek(id: string): string {
  const feed = JSON.parse(fs.readFileSync(WEEK, 'utf8'));
  const f = feed.features.find((x: any) => x.id === id);
  f.properties.mag = Math.round((f.properties.mag + 0.6) * 10) / 10;
  f.properties.updated += 60_000;
  const file = path.join(tempDir(), 'all_week_revised.geojson');
  fs.writeFileSync(file, JSON.stringify(feed));
  return file;
}

describe('GET /events/stream', () => {
  it('answers text/event-stream, uncached and uncompressed, with the platform headers', async () => {
    const c = await connect('', { 'accept-encoding': 'gzip, br' });
    expect(c.res.status).toBe(200);
    expect(c.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(c.res.headers.get('cache-control')).toBe('no-store');
    expect(c.res.headers.get('content-encoding')).toBeNull();
    expect(c.res.headers.get('etag')).toBeNull();
    expect(c.res.headers.get('x-request-id')).toBeTruthy();
    await opened(c);
    expect(c.parser.retryMs).toBe(3000);
    expect(data(c.messages[0])).toMatchObject({ type: 'stream.open', backlog_size: 10000, heartbeat_s: 0.1 });
    await until(() => c.comments >= 2); // heartbeats keep an idle stream open through proxies
    c.abort();
    await until(() => server.app.changes.subscribers === 0); // a client that leaves is forgotten
  });

  it('a client that disconnects and reconnects with Last-Event-ID misses nothing', async () => {
    const a = await connect();
    await opened(a);
    const state = await liveNow(); // read after opening the stream: nothing can fall in between
    clock = '2020-07-05T00:00:00Z';
    await storeChanged();
    await until(() => a.parser.lastEventId === server.app.changes.headId);
    expect(a.messages.map((m) => m.event)).toEqual(
      expect.arrayContaining(['stream.open', 'event.new', 'event.updated']),
    ); // quakes known, and aged to monitoring
    a.abort();
    await a.done;
    const lastId = a.parser.lastEventId;

    // While the client is away: the clock moves on, and a quake's network revises it (new version, new rings).
    clock = WEEK_NOW;
    await storeChanged();
    const live = await liveNow();
    const withRings = await db.all<{ id: string; source_id: string }>(
      `SELECT id::VARCHAR AS id, source_id FROM events WHERE id IN (SELECT event_id FROM rings) ORDER BY severity DESC`,
    );
    const row = withRings.find((r) => live.has(r.id));
    await ingestSource({ ...ctx, clock: () => new Date(WEEK_NOW) }, usgsEarthquakes, revisedWeek(row!.source_id));
    await storeChanged();

    const b = await connect('', { 'last-event-id': lastId });
    await opened(b);
    const replayed = b.messages.filter((m) => m.event !== 'stream.open');
    expect(replayed.map((m) => m.event)).toEqual(
      expect.arrayContaining(['event.updated', 'event.ended', 'rings.changed']),
    );
    const revised = replayed.find((m) => m.event === 'rings.changed');
    expect(data(revised!)).toMatchObject({ event_id: row!.id, rings_url: `/api/v1/events/${row!.id}/rings` });

    // Every change exactly once, in order, across the two connections.
    const ids = [...a.messages, ...replayed].filter((m) => m.event !== 'stream.open').map((m) => data(m).id as string);
    const seqs = ids.map((id) => Number(id.split('-')[1]));
    expect(new Set(ids).size).toBe(ids.length);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0] + i));
    apply(state, a.messages);
    apply(state, replayed);
    expect([...state.entries()].sort()).toEqual([...(await liveNow()).entries()].sort());
    b.abort();
  });

  it('an id older than the backlog (or from another server run) gets a reset and the current live set', async () => {
    const c = await connect('?event_type=earthquake', { 'last-event-id': 'zz0-5' });
    await opened(c);
    expect(c.messages[0].event).toBe('reset');
    expect(data(c.messages[0]).reason).toMatch(/restarted/);
    const snapshot = c.messages.filter((m) => m.event === 'event.snapshot');
    expect(snapshot.length).toBe((await liveNow()).size);
    // The reset messages carry no id: a client cut off in the middle gets the whole reset again.
    expect(c.messages.at(-1)!.event).toBe('stream.open');
    expect(c.parser.lastEventId).toBe(server.app.changes.headId);
    c.abort();
  });

  it('a client away for more changes than the backlog holds gets a reset, not a silent gap', async () => {
    let own = '2020-07-04T00:00:00Z';
    const small = await startServer({
      ctx: { ...ctx, clock: () => new Date(own) },
      host: '127.0.0.1',
      port: 0,
      stream: { backlogSize: 3, tickMs: 0 },
    });
    try {
      const before = small.app.changes.headId;
      own = '2020-07-05T00:00:00Z';
      await small.app.changes.refresh();
      const r = await fetch(`${small.url}/api/v1/events/stream`, { headers: { 'last-event-id': before } });
      const got: SseEvent[] = [];
      for await (const m of readSse(r.body!)) {
        got.push(m);
        if (m.event === 'stream.open') break;
      }
      expect(got[0].event).toBe('reset');
      expect(JSON.parse(got[0].data).reason).toMatch(/more than the backlog of 3 changes/);
      expect(got.at(-1)!.lastEventId).toBe(small.app.changes.headId);
    } finally {
      await small.stop(1000);
    }
  });

  it('a hostile Last-Event-ID gets a reset, never an error', async () => {
    for (const id of [
      "' OR 1=1 --",
      '../../etc/passwd',
      'NaN-NaN',
      `${server.app.changes.epoch}-99999999999999`,
      `${server.app.changes.epoch}--1`,
      'x'.repeat(1000),
      '\u00ff\u00fe',
    ]) {
      const r = await fetch(`${server.url}/api/v1/events/stream?event_type=hurricane`, {
        headers: { 'last-event-id': id },
      });
      expect(r.status, id).toBe(200);
      for await (const m of readSse(r.body!)) {
        expect(m.event, id).toBe('reset');
        break;
      }
    }
  });

  it('cuts off a client that stops reading once its unread messages pass the bound, and forgets it', async () => {
    const feed = new ChangeFeed(ctx, { tickMs: 0 });
    clock = '2020-07-02T00:00:00Z';
    await feed.start();
    const stream = sseStream(feed, { statuses: ['active', 'monitoring'] }, null, { maxBufferedBytes: 100_000 }); // never read while changes pour in
    await new Promise((r) => setTimeout(r, 10));
    expect(feed.subscribers).toBe(1);
    clock = '2020-07-08T00:00:00Z';
    await feed.refresh(); // thousands of changes, megabytes of messages
    expect(feed.subscribers).toBe(0);
    let bytes = 0;
    for await (const chunk of stream) bytes += chunk.length; // what was queued, then the end
    expect(bytes).toBeLessThan(100_000 + 64 * 1024 + 20_000);
    feed.close();
  });

  it("answers 503 with Retry-After past the server's number of open streams", async () => {
    const s = await startServer({
      ctx,
      host: '127.0.0.1',
      port: 0,
      rateLimit: 'off',
      stream: { tickMs: 0, maxSubscribers: 1 },
    });
    try {
      const abort = new AbortController();
      const first = await fetch(`${s.url}/api/v1/events/stream`, { signal: abort.signal });
      expect(first.status).toBe(200);
      await until(() => s.app.changes.subscribers === 1);
      const second = await fetch(`${s.url}/api/v1/events/stream`);
      expect(second.status).toBe(503);
      expect(second.headers.get('retry-after')).toBe('30');
      expect((await second.json()).detail).toMatch(/already holds 1 event streams/);
      abort.abort();
    } finally {
      await s.stop(1000);
    }
  });

  it('applies the filters of /events/live to every message', async () => {
    clock = '2020-07-02T00:00:00Z';
    await storeChanged();
    const box = [-118.5, 35, -116.5, 37] as const; // Ridgecrest, California
    const c = await connect(`?bbox=${box.join(',')}&status=active`);
    const none = await connect('?event_type=hurricane,wildfire');
    await opened(c);
    await opened(none);
    clock = '2020-07-06T00:00:00Z';
    await storeChanged();
    await until(() => c.messages.length > 3);
    await new Promise((r) => setTimeout(r, 50));
    for (const m of c.messages.filter((x) => x.event.startsWith('event.'))) {
      const [lng, lat] = data(m).event.geometry.coordinates;
      expect(lng >= box[0] && lng <= box[2] && lat >= box[1] && lat <= box[3]).toBe(true);
      if (m.event !== 'event.ended') expect(data(m).event.properties.status).toBe('active');
    }
    expect(none.messages.map((m) => m.event)).toEqual(['stream.open']);
    c.abort();
    none.abort();
  });

  it('refuses bad filters with 400 problem+json, as /events/live does', async () => {
    for (const q of ['?event_type=meteor', '?bbox=1,2,3', '?since=yesterday', '?status=ended']) {
      const r = await fetch(`${server.url}/api/v1/events/stream${q}`);
      expect(r.status, q).toBe(400);
      expect(r.headers.get('content-type')).toBe('application/problem+json');
      expect((await r.json()).code).toBe('invalid_parameter');
    }
  });

  it('ends open streams cleanly when the server stops', async () => {
    const s2ctx = { ...ctx };
    const s2 = await startServer({ ctx: s2ctx, host: '127.0.0.1', port: 0, stream: { heartbeatMs: 100, tickMs: 0 } });
    const abort = new AbortController();
    const res = await fetch(`${s2.url}/api/v1/events/stream`, { signal: abort.signal });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const m of readSse(res.body!)) seen.push(m.event);
    })();
    await until(() => seen.includes('stream.open'));
    const t0 = Date.now();
    const stopped = s2.stop(10_000);
    await reading; // the body ends: no error, no hang
    expect(Date.now() - t0).toBeLessThan(1000);
    await stopped;
    expect(Date.now() - t0).toBeLessThan(2000); // not held for the 10 s grace period
    expect(s2.app.changes.subscribers).toBe(0);
  });
});

describe('GET /events/stream for an authenticated caller: trigger state changes and alerts', () => {
  it("gets its own triggers' state changes and alerts, and no one else's; anonymous streams get none", async () => {
    const secret = new TextEncoder().encode('a-test-secret-that-is-at-least-32-characters-long');
    const auth = { issuer: 'catintel', audience: 'catintel-api', leewaySeconds: 0, secret };
    const jwt = (sub: string) =>
      new SignJWT({ tier: 'agency' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer('catintel')
        .setAudience('catintel-api')
        .setSubject(sub)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(secret);
    clock = WEEK_NOW;
    const s = await startServer({ ctx, host: '127.0.0.1', port: 0, auth, rateLimit: 'off', stream: { tickMs: 0 } });
    try {
      const [alice, bob] = [await jwt('alice@example.com'), await jwt('bob@example.com')];
      // Ridgecrest, California: the week's sample holds its aftershocks (M2+ within 100 km).
      const created = await fetch(`${s.url}/api/v1/triggers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${alice}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          name: 'Ridgecrest plant',
          peril: 'earthquake',
          lat: 35.77,
          lng: -117.6,
          radius_km: 100,
          threshold_type: 'magnitude',
          threshold_value: 2,
        }),
      });
      expect(created.status).toBe(201);
      const trigger = await created.json();
      const read = async (token?: string) => {
        const abort = new AbortController();
        const res = await fetch(`${s.url}/api/v1/events/stream?event_type=hurricane`, {
          headers: token ? { authorization: `Bearer ${token}` } : {},
          signal: abort.signal,
        });
        const got: SseEvent[] = [];
        const done = (async () => {
          try {
            for await (const m of readSse(res.body!)) got.push(m);
          } catch {
            /* aborted */
          }
        })();
        return { got, stop: async () => (abort.abort(), await done) };
      };
      const [a, b, anon] = [await read(alice), await read(bob), await read()];
      await until(() => [a, b, anon].every((c) => c.got.some((m) => m.event === 'stream.open')));

      const evaluate = HANDLERS.find((h) => h.name === 'triggers.evaluate')!;
      await evaluate.run(ctx, evaluate.parse({}, { tier: 'enterprise', account: 'local' }), {
        tier: 'enterprise',
        account: 'local',
      });
      await s.app.changes.refresh();
      await until(() => a.got.some((m) => m.event === 'trigger.alert'));
      await new Promise((r) => setTimeout(r, 100));
      const state = a.got.find((m) => m.event === 'trigger.state');
      expect(JSON.parse(state!.data)).toMatchObject({
        type: 'trigger.state',
        trigger_id: trigger.id,
        name: 'Ridgecrest plant',
        previous_state: 'clear',
        state: 'triggered',
      });
      expect(a.got.filter((m) => m.event === 'trigger.alert').map((m) => JSON.parse(m.data))).toEqual(
        expect.arrayContaining([expect.objectContaining({ trigger_id: trigger.id, kind: 'triggered' })]),
      );
      // The event filters (event_type=hurricane) do not hide a caller's own trigger messages; others see none.
      expect(b.got.map((m) => m.event)).toEqual(['stream.open']);
      expect(anon.got.map((m) => m.event)).toEqual(['stream.open']);
      await Promise.all([a.stop(), b.stop(), anon.stop()]);
    } finally {
      await s.stop(1000);
    }
  });
});

describe('GET /events/stream and the rate limit', () => {
  it('counts once, however long the stream stays open', async () => {
    const s3 = await startServer({ ctx, host: '127.0.0.1', port: 0, stream: { heartbeatMs: 20, tickMs: 0 } });
    try {
      const abort = new AbortController();
      const res = await fetch(`${s3.url}/api/v1/events/stream`, { signal: abort.signal });
      expect(res.headers.get('x-ratelimit-limit')).toBe('60');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('59');
      const reader = res.body!.getReader();
      for (let i = 0; i < 5; i++) await reader.read(); // heartbeats flow; none is a request
      const after = await fetch(`${s3.url}/api/v1/events/live?limit=1`);
      expect(after.headers.get('x-ratelimit-remaining')).toBe('58');
      abort.abort();
    } finally {
      await s3.stop(1000);
    }
  });
});
