/**
 * One request, start to finish. The order is the contract's:
 *
 *   request id -> who is calling -> rate limit (429) -> CORS preflight -> route (404 / 405)
 *   -> bad credential (401) -> access level (401 / 403) -> body (415 / 413 / 400)
 *   -> planned endpoint: its body against the document (400 / 422), then 501 -> handler (400 / 404 / 422 / 503 / 500)
 *
 * Whatever happens, the response carries X-Request-Id and the X-RateLimit-* headers, errors are
 * problem+json, and one access-log line is written.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Context } from '../context.js';
import { CatintelError, asCatintelError } from '../errors.js';
import type { Caller, RawInput } from '../handlers/types.js';
import { storeChangeOf } from '../handlers/store-change.js';
import type { StoreChange } from '../stream/store-change.js';
import { authenticate, type AuthDeps, type Principal } from '../auth/authenticate.js';
import { checkAccess } from './access.js';
import { maskedQuery, type AccessLogEntry } from './access-log.js';
import { readBody, type BodyLimits } from './body.js';
import type { ResponseCache } from './cache.js';
import { corsHeaders, isPreflight, preflightHeaders, type CorsOptions } from './cors.js';
import { notImplementedProblem, problemOf, type Problem } from './problem.js';
import { unmetered, type RateLimiter, type RateDecision } from './rate-limit.js';
import { ARROW_HANDLERS, ARROW_STREAM, arrowEtagOf, arrowStreamOf, prefersArrow } from './accept-arrow.js';
import { bodySizeOf, compressAhead, encode, toResponse, type Encoded } from './respond.js';
import { API_PREFIX, type Route, type RouteTable } from './routes.js';
import type { RequestsPerMinute } from './limits.js';
import type { ParamCheck } from './param-check.js';
import type { BodyCheck } from './body-check.js';
import { absoluteLinks, originOf, wantsAbsoluteLinks } from './ogc-links.js';
import { EVENT_HANDLERS, type Freshness } from './freshness.js';
import { withDeadline } from './deadline.js';
import { queryOf } from './query.js';

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

export interface PipelineDeps {
  ctx: Context;
  table: RouteTable;
  auth: Omit<AuthDeps, 'db'>;
  limiter?: RateLimiter;
  limits: RequestsPerMinute;
  cache: ResponseCache;
  cors: CorsOptions;
  body: BodyLimits;
  handlerTimeoutMs: number;
  accessLog?: (e: AccessLogEntry) => void;
  openapi: () => Encoded;
  /** The landing page, its links absolute with the origin the client called (src/http/ogc-links.ts). */
  landing: (origin: string) => Encoded;
  /** Body checks of planned POST endpoints, from the OpenAPI document. */
  bodyChecks: Map<Route, BodyCheck>;
  /** Query/path parameter checks from the OpenAPI document, per route. */
  paramChecks: Map<Route, ParamCheck>;
  health: () => Promise<{ status: number; body: unknown }>;
  /** X-Data-Freshness on events responses (src/http/freshness.ts). */
  freshness?: Freshness;
  isDraining: () => boolean;
  /** A stream route's answer (GET /events/stream, src/stream/sse.ts). */
  stream?: (req: Request, input: unknown, caller: Caller) => Promise<Response>;
  /** After a write through the API (POST, DELETE): the event stream publishes what changed. */
  storeChanged?: (change: StoreChange) => void;
}

interface State {
  requestId: string;
  principal: Principal | null;
  rate: RateDecision | null;
  clientIp: string;
  /** The socket's peer is a trusted proxy: its X-Forwarded-Host/-Proto name the origin of absolute links. */
  viaTrustedProxy: boolean;
  code?: string;
}

/** Who sent the request (src/http/trusted-proxies.ts): the client's address, and whether a trusted proxy passed it on. */
export interface RequestClient {
  ip: string;
  viaTrustedProxy: boolean;
}

/** `url`: the request's URL as the HTTP layer parsed it (h3's, parsed lazily: only what is read is worked out). */
export async function handleRequest(req: Request, url: URL, client: RequestClient, d: PipelineDeps): Promise<Response> {
  const started = performance.now();
  const given = req.headers.get('x-request-id');
  const clientIp = client.ip;
  const s: State = {
    requestId: given && REQUEST_ID_RE.test(given) ? given : randomUUID(),
    principal: null,
    rate: null,
    clientIp,
    viaTrustedProxy: client.viaTrustedProxy,
  };
  let res: Response;
  try {
    res = await respond(req, url, s, d);
  } catch (err) {
    res = problemResponse(req, err, url.pathname, s, d);
  }
  res = finish(req, res, s, d);
  d.accessLog?.({
    time: new Date().toISOString(),
    request_id: s.requestId,
    method: req.method,
    path: url.pathname.slice(0, 2000),
    query: maskedQuery(url.searchParams),
    status: res.status,
    duration_ms: Math.round((performance.now() - started) * 100) / 100,
    bytes: bodySizeOf(res) || Number(res.headers.get('content-length') ?? '') || undefined,
    client_ip: clientIp,
    tier: s.principal?.tier ?? 'free',
    credential: s.principal?.credentialId,
    user_agent: req.headers.get('user-agent')?.slice(0, 200) ?? undefined,
    code: s.code,
  });
  return res;
}

async function respond(req: Request, url: URL, s: State, d: PipelineDeps): Promise<Response> {
  // Who is calling decides which window is charged; a credential that fails is charged to the address.
  let authError: unknown = null;
  // No header (or an empty one) is anonymous: authenticate()'s own answer, without an await per request.
  const authorization = req.headers.get('authorization');
  if (authorization !== null && authorization.trim() !== '') {
    try {
      s.principal = await authenticate(authorization, { ...d.auth, db: d.ctx.db });
    } catch (err) {
      authError = err;
    }
  }
  const p = s.principal;
  const limit = d.limits[p ? p.tier : 'free'];
  // Per credential and tier (one account holding tokens of two tiers gets two windows, never a reset).
  s.rate = d.limiter
    ? await d.limiter.hit(p ? `${p.credentialId}|${p.tier}` : `ip:${s.clientIp}`, limit)
    : unmetered(limit);
  if (!s.rate.allowed) {
    const who = p ? `this credential (${p.tier} tier)` : 'this client address';
    throw new CatintelError(
      'rate_limited',
      `${who} may make ${s.rate.limit} requests per minute; retry in ${s.rate.resetSeconds} s`,
      {
        headers: { 'retry-after': String(s.rate.resetSeconds) },
      },
    );
  }

  const method = req.method.toUpperCase();
  if (method === 'OPTIONS') {
    const allow = d.table.allowedAt(url.pathname);
    if (allow.length === 0) throw notFound(url.pathname);
    const headers = isPreflight(req) ? preflightHeaders(req, d.cors, allow) : {};
    return new Response(null, { status: 204, headers: { ...headers, allow: allow.join(', ') } });
  }
  const m = d.table.match(method, url.pathname);
  if (m.kind === 'none') throw notFound(url.pathname);
  if (m.kind === 'method') {
    throw new CatintelError(
      'method_not_allowed',
      `${method} is not allowed on ${url.pathname}; use ${m.allow.join(', ')}`,
      { headers: { allow: m.allow.join(', ') } },
    );
  }
  const route = m.route;
  if (authError) throw authError;
  checkAccess(route, url, s.principal);

  const raw = queryOf(url);
  d.paramChecks.get(route)?.(raw, m.params);
  // Path parameters over query parameters of the same name, added to the one object (no spread of both).
  for (const k in m.params) raw[k] = m.params[k];
  // Only a request body may arrive as `body`, never a query parameter of that name (deleted only when
  // present: a delete turns the object into a slow dictionary for every read after it).
  if ('body' in raw) delete raw.body;
  if (route.method === 'POST') {
    const body = await readBody(req, route.accepts ?? ['application/json'], d.body);
    if (body !== undefined) raw.body = body;
  } else if (req.body) {
    await req.body.cancel().catch(() => undefined);
  }
  if (route.planned) {
    d.bodyChecks.get(route)?.(raw.body, mediaTypeOf(req));
    s.code = 'not_implemented';
    return problemJson(req, notImplementedProblem(route.method, API_PREFIX + route.path, url.pathname), {}, s, d);
  }
  if (route.platform === 'openapi') return toResponse(d.openapi(), req, {}, platformHeaders(req, s, d));
  if (route.platform === 'landing')
    return toResponse(d.landing(originOf(req, url, s.viaTrustedProxy)), req, {}, platformHeaders(req, s, d));
  if (route.platform === 'healthz') {
    const h = await d.health();
    return new Response(JSON.stringify(h.body), {
      status: h.status,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  }
  // A load balancer probing /health takes a draining server out of rotation, as with /healthz.
  if (route.path === '/health' && d.isDraining()) {
    return new Response(JSON.stringify({ status: 'draining' }), {
      status: 503,
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
    });
  }
  return runHandler(req, url, route, raw, s, d);
}

async function runHandler(
  req: Request,
  url: URL,
  route: Route,
  raw: RawInput,
  s: State,
  d: PipelineDeps,
): Promise<Response> {
  const h = route.handler!;
  const caller: Caller = s.principal
    ? { tier: s.principal.tier, account: s.principal.account, clientIp: s.clientIp }
    : { tier: 'free', account: `ip:${s.clientIp}`, clientIp: s.clientIp };
  // Long-lived: never cached, compressed or tagged; one request against the rate limit however long it runs.
  if (route.stream && d.stream) {
    const input = h.parse(raw, caller);
    if (req.method === 'HEAD')
      return new Response(null, {
        status: 200,
        headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' },
      });
    return d.stream(req, input, caller);
  }
  // Shared only between callers of the same tier: some answers differ by tier (perils, oasis format).
  // OGC resources link absolutely, so their bytes depend on the origin called as well.
  const origin = wantsAbsoluteLinks(route) ? originOf(req, url, s.viaTrustedProxy) : undefined;
  // The table answers (event collections, EP curve, exposure) are Arrow to a client that asks for it (accept-arrow.ts); the two forms are cached apart.
  const arrowable = ARROW_HANDLERS.has(h.name);
  const arrow = arrowable && prefersArrow(req.headers.get('accept'));
  const cacheKey =
    d.cache.enabled && route.method === 'GET' && route.access === 'free' && !route.perAccount
      ? `${caller.tier}|${arrow ? 'arrow|' : ''}${origin ?? ''}${url.pathname}?${url.searchParams}`
      : null;
  const nowMs = Date.now();
  let encoded = cacheKey ? d.cache.get(cacheKey, nowMs) : undefined;
  let body: unknown;
  if (!encoded) {
    const input = h.parse(raw, caller);
    const result = await withDeadline(d.ctx, (ctx) => h.run(ctx, input, caller), d.handlerTimeoutMs, handlerTimedOut);
    body = result.body;
    const stream =
      arrow && (result.status ?? 200) === 200
        ? arrowStreamOf(h.name, origin ? { ...result, body: absoluteLinks(result.body, origin) } : result)
        : undefined;
    encoded =
      stream !== undefined
        ? encode(
            200,
            stream,
            ARROW_STREAM,
            { ...result.headers, vary: 'Accept' },
            { sources: result.sources, etag: arrowEtagOf(result) },
          )
        : encode(
            result.status ?? 200,
            origin ? absoluteLinks(result.body, origin) : result.body,
            result.mediaType ?? 'application/json',
            arrowable ? { ...result.headers, vary: 'Accept' } : result.headers,
            result,
          );
    if (cacheKey && encoded.status === 200) d.cache.set(cacheKey, encoded, nowMs);
    if (route.method !== 'GET') {
      d.cache.invalidate(); // POST and DELETE change the store
      d.storeChanged?.(storeChangeOf(h));
    }
  }
  let freshness =
    d.freshness && EVENT_HANDLERS.has(h.name) && encoded.status === 200
      ? d.freshness.header(encoded, body, nowMs)
      : undefined;
  if (freshness instanceof Promise) freshness = await freshness;
  await compressAhead(encoded, req);
  return toResponse(
    encoded,
    req,
    freshness === undefined ? {} : { 'x-data-freshness': freshness },
    platformHeaders(req, s, d),
  );
}

const handlerTimedOut = (ms: number) =>
  new CatintelError(
    'unavailable',
    `the request took longer than ${ms / 1000} s and was stopped; narrow it or retry later`,
    { headers: { 'retry-after': '10' } },
  );

const mediaTypeOf = (req: Request) => (req.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();

function notFound(path: string): CatintelError {
  return new CatintelError(
    'not_found',
    `no route ${path.slice(0, 200)}; the API lives under ${API_PREFIX}, see ${API_PREFIX}/openapi.json`,
  );
}

function problemResponse(req: Request, err: unknown, path: string, s: State, d: PipelineDeps): Response {
  let e = asCatintelError(err);
  s.code = e.code;
  if (e.code === 'store_corrupt' || e.code === 'disk_full') {
    // The operator reads which file and what to do; the client learns what kind of fault it is, no paths.
    d.ctx.log('error', e.message, { request_id: s.requestId, path, code: e.code });
    e = new CatintelError(
      e.code,
      e.code === 'disk_full'
        ? 'the server is out of disk space; try again later'
        : "the server's store is damaged and cannot answer; the operator has been told",
    );
  }
  if (e.code === 'internal_error') {
    // The operator gets the stack; the client gets nothing it could learn the internals from.
    const cause = err instanceof Error ? err.stack : String(err);
    d.ctx.log('error', 'internal error', { request_id: s.requestId, path, error: cause });
  }
  return problemJson(req, problemOf(e, path.slice(0, 2000)), e.headers ?? {}, s, d);
}

/** Problems are compressed like any body when the client accepts it (a 422 can list 100 fields). */
function problemJson(req: Request, p: Problem, headers: Record<string, string>, s: State, d: PipelineDeps): Response {
  return toResponse(encode(p.status, p, 'application/problem+json', headers), req, {}, platformHeaders(req, s, d));
}

/** The headers every response carries, whatever produced it (`vary` is added to the response's own). */
function platformHeaders(req: Request, s: State, d: PipelineDeps): Record<string, string> {
  const h: Record<string, string> = { 'x-request-id': s.requestId };
  if (s.rate) {
    h['x-ratelimit-limit'] = String(s.rate.limit);
    h['x-ratelimit-remaining'] = String(s.rate.remaining);
    h['x-ratelimit-reset'] = String(s.rate.resetSeconds);
  }
  if (d.cors.origins.length > 0 && !isPreflight(req)) Object.assign(h, corsHeaders(req, d.cors));
  if (d.isDraining()) h.connection = 'close';
  return h;
}

/**
 * The platform headers on a response made elsewhere (preflight, health, stream); those of toResponse()
 * (every encoded body: events, documents, problems) already carry them and pass as they are.
 */
function finish(req: Request, res: Response, s: State, d: PipelineDeps): Response {
  if (bodySizeOf(res) !== undefined) return res;
  const h = res.headers;
  for (const [k, v] of Object.entries(platformHeaders(req, s, d))) {
    if (k === 'vary') h.append(k, v);
    else h.set(k, v);
  }
  if (req.method === 'HEAD') return new Response(null, { status: res.status, headers: h });
  return res;
}
