/**
 * The events endpoints in-process, no sockets: the app's fetch over the bench's URL mixes (bench/live-load.ts),
 * cache off, beside a bare h3 app answering the same bodies, and the handlers alone. Microseconds per request
 * (wall and CPU);
 * run under `node --cpu-prof` to see where a request's CPU goes.
 *
 *   node [--cpu-prof] dist/bench/http-profile.js [SHARED_DATA] [SECONDS_PER_LINE]
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { H3 } from 'h3';
import { FastResponse } from 'srvx';
import { createApp } from '../src/http/app.js';
import { eventsLive, eventsNearby, eventsShow } from '../src/handlers/events.js';
import { eventsContext } from './events-app.js';
import { mixes } from './live-load.js';

const sharedData = process.argv[2] ?? process.env.CATINTEL_SHARED_DATA ?? path.resolve('../shared/data');
const seconds = Number(process.argv[3] ?? 3);
/** Only the lines whose kind is listed (app, bare_app, handler), e.g. to profile the app alone. */
const only = process.argv[4]?.split(',');

const ctx = await eventsContext(sharedData, true);
const app = createApp({ ctx, cacheTtlMs: 0, rateLimit: 'off' });
const get = (p: string) =>
  app.fetch(new Request(`http://127.0.0.1${p}`, { headers: { 'accept-encoding': 'identity' } }));
const mix = await mixes(async (p) => (await get(p)).json());
const FIXED = ['/api/v1/events/live?limit=100'];

async function timed(name: string, paths: string[], call: (p: string, n: number) => Promise<unknown>): Promise<void> {
  if (only && !only.includes(name.split('.')[1])) return;
  for (let k = 0; k < paths.length; k++) await call(paths[k], k); // warm-up
  let n = 0;
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  while (performance.now() - t0 < seconds * 1000) for (let k = 0; k < paths.length; k++, n++) await call(paths[k], k);
  const us = ((performance.now() - t0) * 1000) / n;
  const c = process.cpuUsage(c0);
  // CPU time is the steadier figure on a shared machine: wall time counts the neighbours' turns too.
  const cpu = (c.user + c.system) / n;
  process.stdout.write(
    `${JSON.stringify({ name, n, us_per_request: Math.round(us * 10) / 10, cpu_us_per_request: Math.round(cpu * 10) / 10 })}\n`,
  );
}

const handlers = { fixed: eventsLive, live: eventsLive, nearby: eventsNearby, show: eventsShow } as const;
for (const [name, paths] of [
  ['fixed', FIXED],
  ['live', mix.live],
  ['nearby', mix.nearby],
  ['show', mix.show],
] as const) {
  const bodies: Uint8Array<ArrayBuffer>[] = [];
  for (const p of paths) bodies.push(new Uint8Array(await (await get(p)).arrayBuffer()));
  const bare = new H3();
  bare.get(
    '/bare/:n',
    (event) =>
      new FastResponse(bodies[Number(event.context.params?.n)], {
        headers: { 'content-type': 'application/geo+json' },
      }),
  );
  const h = handlers[name];
  const raws = paths.map((p) => {
    const u = new URL(p, 'http://x');
    const raw: Record<string, string> = Object.fromEntries(u.searchParams);
    if (h === eventsShow) raw.id = decodeURIComponent(u.pathname.split('/').pop()!);
    return raw;
  });
  await timed(`${name}.app`, paths, async (p) => (await get(p)).status);
  await timed(
    `${name}.bare_app`,
    paths,
    async (_, k) => (await bare.fetch(new Request(`http://127.0.0.1/bare/${k}`))).status,
  );
  await timed(`${name}.handler`, paths, async (_, k) =>
    h.run(ctx, h.parse(raws[k] as never, { tier: 'free', account: 'ip:x', clientIp: 'x' }) as never, {
      tier: 'free',
      account: 'ip:x',
      clientIp: 'x',
    }),
  );
}
await ctx.db.close();
