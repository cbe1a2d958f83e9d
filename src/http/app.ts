/**
 * The /api/v1 h3 app, generated from the handler registry: every handler with an HTTP binding becomes
 * a route; the route table also answers 404 for unknown paths and 405 (with Allow) for known paths
 * with the wrong method. Every response carries X-Request-Id; errors are problem+json.
 */
import { randomUUID } from 'node:crypto';
import { H3, getQuery, getRouterParams, getRequestIP, type H3Event } from 'h3';
import type { Context } from '../context.js';
import { CatintelError, asCatintelError } from '../errors.js';
import { HANDLERS } from '../handlers/registry.js';
import type { Caller, Handler, RawInput } from '../handlers/types.js';
import { ResponseCache } from './cache.js';
import { problemOf } from './problem.js';
import { encode, toResponse, type Encoded } from './respond.js';

export const API_PREFIX = '/api/v1';

export interface AppOptions {
  ctx: Context;
  /** Believe X-Forwarded-For for the client address (only behind a trusted proxy). */
  trustProxy?: boolean;
  /** How long public GET responses are reused (ms); 0 disables the cache. */
  cacheTtlMs?: number;
}

export interface App {
  h3: H3;
  fetch: (req: Request) => Promise<Response>;
  cache: ResponseCache;
}

const REQUEST_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** '/events/{id}/rings' -> '/api/v1/events/:id/rings' (h3 route syntax). */
export function routePathOf(path: string): string {
  return API_PREFIX + path.replace(/\{(\w+)\}/g, ':$1');
}

export function createApp(o: AppOptions): App {
  const h3 = new H3();
  const cache = new ResponseCache(o.cacheTtlMs ?? 2000);
  const routes = HANDLERS.filter((h) => h.http);

  for (const h of routes) {
    const method = h.http!.method === 'GET' ? 'get' : 'post';
    h3[method](routePathOf(h.http!.path), (event: H3Event) => handle(event, h, o, cache));
  }
  h3.all('/**', (event: H3Event) => {
    const path = new URL(event.req.url).pathname;
    const allowed = routes.filter((h) => matches(h.http!.path, path)).map((h) => h.http!.method);
    if (allowed.length > 0) {
      const allow = [...new Set([...allowed, ...(allowed.includes('GET') ? ['HEAD'] : [])])].join(', ');
      return errorResponse(event, new CatintelError('method_not_allowed', `${event.req.method} is not allowed on ${path}; use ${allow}`, { headers: { allow } }));
    }
    return errorResponse(event, new CatintelError('not_found', `no route ${path}; the API lives under ${API_PREFIX}, see ${API_PREFIX}/openapi.json`));
  });

  return { h3, cache, fetch: (req) => Promise.resolve(h3.fetch(req)) };
}

function matches(template: string, path: string): boolean {
  const re = new RegExp(`^${routePathOf(template).replace(/:\w+/g, '[^/]+')}/?$`);
  return re.test(path);
}

function requestIdOf(event: H3Event): string {
  const given = event.req.headers.get('x-request-id');
  return given && REQUEST_ID_RE.test(given) ? given : randomUUID();
}

function callerOf(event: H3Event, o: AppOptions): Caller {
  const clientIp = getRequestIP(event, { xForwardedFor: Boolean(o.trustProxy) }) ?? 'unknown';
  return { tier: 'free', account: `ip:${clientIp}`, clientIp };
}

async function handle(event: H3Event, h: Handler, o: AppOptions, cache: ResponseCache): Promise<Response> {
  const requestId = requestIdOf(event);
  try {
    const caller = callerOf(event, o);
    const url = new URL(event.req.url);
    const cacheKey = h.http!.method === 'GET' && h.http!.access === 'free' ? `${url.pathname}?${url.searchParams}` : null;
    const nowMs = Date.now();
    let encoded: Encoded | undefined = cacheKey ? cache.get(cacheKey, nowMs) : undefined;
    if (!encoded) {
      const raw: RawInput = { ...queryOf(event), ...getRouterParams(event, { decode: true }) };
      const input = h.parse(raw, caller);
      const result = await h.run(o.ctx, input, caller);
      encoded = encode(result.status ?? 200, result.body, result.mediaType ?? 'application/json', result.headers);
      if (cacheKey && encoded.status === 200) cache.set(cacheKey, encoded, nowMs);
    }
    return toResponse(encoded, event.req as Request, { 'x-request-id': requestId });
  } catch (err) {
    return errorResponse(event, err, requestId);
  }
}

/** Query values as strings; a repeated key arrives as an array, which parse*() refuses by name. */
function queryOf(event: H3Event): RawInput {
  return getQuery(event) as RawInput;
}

export function errorResponse(event: H3Event, err: unknown, requestId = requestIdOf(event)): Response {
  const e = asCatintelError(err);
  if (e.code === 'internal_error') o_log(err);
  const body = JSON.stringify(problemOf(e, new URL(event.req.url).pathname));
  return new Response(body, {
    status: e.status,
    headers: { 'content-type': 'application/problem+json', 'x-request-id': requestId, ...(e.headers ?? {}) },
  });
}

/** Internal errors go to stderr with their stack for the operator, never into a response body. */
function o_log(err: unknown): void {
  process.stderr.write(`internal error: ${err instanceof Error ? err.stack : String(err)}\n`);
}
