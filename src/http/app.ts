/**
 * The /api/v1 h3 app, generated from the handler registry (src/http/routes.ts) and run through one
 * pipeline (src/http/pipeline.ts): credentials, tiers, rate limits, problem+json, X-Request-Id,
 * ETag/304, compression and a short response cache for public GETs.
 */
import { H3, getRequestIP, type H3Config, type H3Event } from 'h3';
import type { Context } from '../context.js';
import { authDefaults, type AuthConfig } from '../auth/config.js';
import { HANDLERS } from '../handlers/registry.js';
import type { Handler } from '../handlers/types.js';
import type { StoreChange } from '../stream/store-change.js';
import type { AccessLogEntry } from './access-log.js';
import { ResponseCache } from './cache.js';
import { httpDefaults, type RequestsPerMinute } from './limits.js';
import { loadOpenApi } from './openapi.js';
import { paramChecks } from './param-check.js';
import { bodyChecks } from './body-check.js';
import { landingPage } from './landing.js';
import { absoluteLinks } from './ogc-links.js';
import { clientErrorHandler, type ClientErrorDeps } from './client-error.js';
import { clientAddressOf, peerIsTrustedProxy, trustedProxiesOf } from './trusted-proxies.js';
import { handleRequest, type PipelineDeps } from './pipeline.js';
import { SlidingWindowLimiter, type RateLimiter } from './rate-limit.js';
import { carvedBodyOf, encode, type Encoded } from './respond.js';
import { release } from '../live-index/slabs.js';
import { Freshness } from './freshness.js';
import { RouteTable } from './routes.js';
import { CatintelError } from '../errors.js';
import { ChangeFeed } from '../stream/feed.js';
import { streamDefaults } from '../stream/limits.js';
import { sseStream, type SseOptions } from '../stream/sse.js';
import type { StreamFilter } from '../stream/filter.js';

export interface AppOptions {
  /** The rate window to count requests in, when not this process's own (a cluster store's shared one). */
  limiter?: RateLimiter;
  ctx: Context;
  /** JWT verification; default: accepts no JWTs (API keys only). */
  auth?: AuthConfig;
  /** The operator's token for /api/v1/admin/* (generated per server run by `catintel serve`). */
  adminToken?: string;
  /**
   * The proxies in front of the server, as `--trust-proxy` names them: a hop count (1) or a comma list
   * of addresses and CIDR blocks ('10.0.0.0/8,::1'); '' means loopback. Default: none, the client is the peer.
   */
  trustProxy?: string | number;
  /** How long public GET responses are reused (ms); 0 disables the cache. */
  cacheTtlMs?: number;
  /** Requests per minute per tier (default docs/contract.md#limits); 'off' or false disables rate limiting (load tests only). */
  rateLimit?: RequestsPerMinute | 'off' | boolean;
  /** Real-time clock in ms for rate windows and token expiry (tests may pass their own). */
  nowMs?: () => number;
  corsOrigins?: string[];
  accessLog?: (e: AccessLogEntry) => void;
  maxJsonBytes?: number;
  maxCsvBytes?: number;
  handlerTimeoutMs?: number;
  /** Handlers to route (default: the registry). */
  handlers?: Handler[];
  /** GET /events/stream: heartbeat and buffer bounds (tests shorten them), backlog size and re-read interval. */
  stream?: SseOptions & { backlogSize?: number; tickMs?: number; maxSubscribers?: number };
}

export interface App {
  h3: H3;
  fetch: (req: Request) => Promise<Response>;
  cache: ResponseCache;
  table: RouteTable;
  limiter?: RateLimiter;
  /** The live set's changes for GET /events/stream: start() when serving, refresh() after every store change. */
  changes: ChangeFeed;
  /**
   * The store changed (an ingest here, or a command through the local channel): cached answers, the
   * per-source ingest times of X-Data-Freshness and the event stream follow it at once (the promise:
   * the stream's re-read of the live set is done). `change` says what the write may have touched; without it, anything.
   */
  storeChanged(change?: StoreChange): Promise<void>;
  /** Shutting down: health answers 503 and responses close their connection. */
  setDraining(draining: boolean): void;
  /** The node server's 'clientError' listener: requests its parser refused, answered like any other error. */
  clientErrorHandler(
    server: Pick<ClientErrorDeps, 'maxHeaderBytes' | 'headersTimeoutMs' | 'requestTimeoutMs'>,
  ): ReturnType<typeof clientErrorHandler>;
}

/**
 * An h3 app whose one handler is the pipeline. The route table (src/http/routes.ts) routes every request, so
 * h3's own router is left out: registered as a `/**` route, the pipeline waited for h3 to split and match
 * every path and build its parameters first, for nothing (a tenth of a small request's CPU).
 */
class PipelineApp extends H3 {
  constructor(
    config: H3Config,
    private readonly answer: (event: H3Event) => Promise<Response>,
  ) {
    super(config);
  }

  override handler(event: H3Event): Promise<Response> {
    return this.answer(event);
  }
}

function releasedWhenFinished(
  res: Response,
  nodeRes: { once(event: 'finish', listener: () => void): unknown },
): Response {
  const carved = carvedBodyOf(res);
  if (carved) nodeRes.once('finish', () => release(carved));
  return res;
}

/** The landing page's title and description: the document's title and first paragraph. */
function landingInfo(doc: Record<string, unknown>): { title: string; description: string } {
  const info = (doc.info ?? {}) as { title?: string; description?: string };
  return {
    title: info.title ?? 'catintel',
    description: (info.description ?? '').split('\n\n')[0].replace(/\s+/g, ' ').trim(),
  };
}

export function createApp(o: AppOptions): App {
  const table = new RouteTable(o.handlers ?? HANDLERS);
  const cache = new ResponseCache(o.cacheTtlMs ?? httpDefaults.cacheTtlMs);
  const rateOff = o.rateLimit === 'off' || o.rateLimit === false;
  const limiter = rateOff ? undefined : (o.limiter ?? new SlidingWindowLimiter(httpDefaults.rateWindowMs, o.nowMs));
  let draining = false;
  const changes = new ChangeFeed(o.ctx, { backlogSize: o.stream?.backlogSize, tickMs: o.stream?.tickMs });
  let openapi: Encoded | undefined;
  const landing = new Map<string, Encoded>();
  const startedAt = Date.now();
  const doc = loadOpenApi();

  if (typeof o.trustProxy === 'boolean')
    throw new TypeError('trustProxy names the trusted proxies (a hop count or CIDR list), not true/false');
  const trusted = trustedProxiesOf(o.trustProxy);
  const freshness = new Freshness(o.ctx);
  const deps: PipelineDeps = {
    ctx: o.ctx,
    table,
    auth: {
      auth: o.auth ?? {
        issuer: authDefaults.issuer,
        audience: authDefaults.audience,
        leewaySeconds: authDefaults.leewaySeconds,
      },
      adminToken: o.adminToken,
      nowMs: o.nowMs,
    },
    limiter,
    limits: typeof o.rateLimit === 'object' ? o.rateLimit : httpDefaults.requestsPerMinute,
    cache,
    cors: { origins: o.corsOrigins ?? [] },
    body: {
      maxJsonBytes: o.maxJsonBytes ?? httpDefaults.maxJsonBytes,
      maxCsvBytes: o.maxCsvBytes ?? httpDefaults.maxCsvBytes,
    },
    handlerTimeoutMs: o.handlerTimeoutMs ?? httpDefaults.handlerTimeoutMs,
    accessLog: o.accessLog,
    openapi: () => (openapi ??= encode(200, doc, 'application/json', { 'cache-control': 'public, max-age=300' })),
    landing: (origin) => {
      let e = landing.get(origin);
      if (!e) {
        e = encode(200, absoluteLinks(landingPage(landingInfo(doc)), origin), 'application/json', {
          'cache-control': 'public, max-age=300',
        });
        if (landing.size < 100) landing.set(origin, e); // a client may send any Host: keep a bounded few
      }
      return e;
    },
    paramChecks: paramChecks(doc, table.routes),
    bodyChecks: bodyChecks(doc, table.routes),
    health: async () => {
      if (draining) return { status: 503, body: { status: 'draining' } };
      try {
        const schemaVersion = await o.ctx.db.schemaVersion();
        return {
          status: 200,
          body: { status: 'ok', schema_version: schemaVersion, uptime_s: Math.round((Date.now() - startedAt) / 1000) },
        };
      } catch {
        return { status: 503, body: { status: 'unavailable' } };
      }
    },
    isDraining: () => draining,
    storeChanged: (change) => {
      freshness.invalidate();
      void changes.refresh(change);
    },
    stream: async (req, input, caller) => {
      if (draining)
        throw new CatintelError('unavailable', 'the server is stopping; reconnect in a few seconds', {
          headers: { 'retry-after': '5' },
        });
      if (changes.subscribers >= (o.stream?.maxSubscribers ?? streamDefaults.maxSubscribers)) {
        throw new CatintelError(
          'unavailable',
          `this server already holds ${changes.subscribers} event streams; retry later or use another server`,
          { headers: { 'retry-after': '30' } },
        );
      }
      await changes.start();
      // Trigger messages go to the account that owns the triggers: callers with a credential (agency and up).
      const account = caller.tier === 'free' ? undefined : caller.account;
      const body = sseStream(changes, input as StreamFilter, req.headers.get('last-event-id'), o.stream, account);
      // X-Accel-Buffering: nginx would otherwise hold the events back until its buffer fills.
      return new Response(body, {
        status: 200,
        headers: {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
          'x-accel-buffering': 'no',
        },
      });
    },
    freshness,
  };

  // allowMalformedURL: a bad percent-encoding reaches the pipeline, which answers it like any
  // unknown path (404 with the platform headers) instead of h3's bare 400.
  const h3 = new PipelineApp({ allowMalformedURL: true }, (event) => {
    const req = event.req as Request;
    const peer = getRequestIP(event); // the socket's peer (none in-process)
    const client = {
      ip: clientAddressOf(peer, req.headers.get('x-forwarded-for'), trusted) ?? 'unknown',
      viaTrustedProxy: trusted.kind !== 'none' && peerIsTrustedProxy(peer, trusted),
    };
    const answered = handleRequest(req, event.url, client, deps);
    // A body the live index carved is released once written out, for its memory to be reused (src/live-index/slabs.ts).
    const nodeRes = event.runtime?.node?.res;
    return nodeRes ? answered.then((res) => releasedWhenFinished(res, nodeRes)) : answered;
  });

  return {
    h3,
    cache,
    table,
    limiter,
    fetch: (req) => Promise.resolve(h3.fetch(req)),
    changes,
    setDraining: (v) => {
      draining = v;
      if (v) changes.close(); // open streams end now, or they would hold the stop for its whole grace period
    },
    clientErrorHandler: (server) =>
      clientErrorHandler({ ...server, limiter, limits: deps.limits, accessLog: o.accessLog }),
    storeChanged: (change) => {
      cache.invalidate();
      freshness.invalidate();
      return changes.refresh(change);
    },
  };
}
