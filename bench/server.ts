/**
 * A server process for the load benchmark. `catintel`: our /api/v1 app on a store holding the USGS week
 * feed, with the response cache for `cacheMs` (0: off) and the live-event index on or off; `floor`: the
 * same app whose /events/live and /events/nearby handlers answer each distinct input with the result they
 * gave it the first time (no selection, no assembly: what the rest of the request costs, the most a faster
 * handler could gain); `bare`: bare h3 handlers returning static bodies read from files: `/bare/<name>/<n>`
 * answers <dir>/<n>.json, the body our server gave to the n-th URL of that mix (routes given as JSON
 * {name: dir}). Prints its port.
 *
 *   node dist/bench/server.js catintel|floor SHARED_DATA - CACHE_MS index|sql
 *   node dist/bench/server.js bare - '{"live":"/tmp/bodies/live"}'
 */
import fs from 'node:fs';
import path from 'node:path';
import { H3, serve } from 'h3';
import { FastResponse } from 'srvx';
import { createApp } from '../src/http/app.js';
import { eventsContext } from './events-app.js';
import { eventsLive, eventsNearby } from '../src/handlers/events.js';
import type { Handler, HandlerResult } from '../src/handlers/types.js';
import { ownBytes } from '../src/live-index/slabs.js';

const [mode, sharedData, routes, cacheMs, events] = process.argv.slice(2);

async function start(): Promise<void> {
  let app: H3;
  if (mode === 'bare') {
    app = new H3();
    for (const [name, dir] of Object.entries(JSON.parse(routes) as Record<string, string>)) {
      const bodies = fs
        .readdirSync(dir)
        .sort((a, b) => parseInt(a) - parseInt(b))
        .map((f) => fs.readFileSync(path.join(dir, f)));
      app.get(
        `/bare/${name}/:n`,
        (event) =>
          new FastResponse(bodies[Number(event.context.params?.n)], {
            headers: { 'content-type': 'application/geo+json' },
          }),
      );
    }
  } else {
    const ctx = await eventsContext(sharedData, events === 'index');
    if (mode === 'floor') for (const h of [eventsLive, eventsNearby] as Handler[]) answerOnce(h);
    // Rate limiting off: this measures the handler path, not the limiter (serve --rate-limit off).
    app = createApp({ ctx, cacheTtlMs: Number(cacheMs), rateLimit: 'off' }).h3;
  }
  const server = serve(app, { port: 0, hostname: '127.0.0.1', silent: true });
  await server.ready();
  process.stdout.write(`${new URL(server.url!).port}\n`);
}

/** `h` runs once per distinct input; later requests with that input get the same result back. */
function answerOnce(h: Handler): void {
  const run = h.run.bind(h);
  const results = new Map<string, Promise<HandlerResult>>();
  h.run = (ctx, input, caller) => {
    const key = JSON.stringify(input);
    let result = results.get(key);
    // Kept bodies are copied out of the slabs they were assembled in (which are reused once a response is out).
    if (!result)
      results.set(
        key,
        (result = run(ctx, input, caller).then((r) =>
          Buffer.isBuffer(r.body) ? { ...r, body: ownBytes(r.body) } : r,
        )),
      );
    return result;
  };
}

// Exit on SIGTERM through process.exit, so that `node --cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));
await start();
