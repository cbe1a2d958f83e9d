/**
 * Absolute links on the OGC API - Features resources (the landing page, /conformance, /collections...).
 * Every other answer links root-relative (`/api/v1/...`), which RFC 3986 §5 resolves against the request
 * URL; but GDAL's OAPIF driver (3.6, the reader QGIS uses) joins a root-relative href to the service URL
 * (`/api/v1/api/v1/collections/events/items`, 404). So on these routes the HTTP adapter makes the links
 * absolute with the origin the client called; handlers stay origin-free, and the CLI output unchanged.
 */
import { API_PREFIX, type Route } from './routes.js';

const OGC_PATHS = /^\/(conformance|collections)(\/|$)/;

export function wantsAbsoluteLinks(route: Route): boolean {
  return route.platform === 'landing' || OGC_PATHS.test(route.path);
}

const HOST_RE = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The origin the client called: the request's own, or behind a trusted proxy (--trust-proxy) the first
 * X-Forwarded-Proto and X-Forwarded-Host entries when they are well-formed.
 */
export function originOf(req: Request, url: URL, trustProxy: boolean): string {
  if (trustProxy) {
    const host = req.headers.get('x-forwarded-host')?.split(',')[0].trim();
    const proto = req.headers.get('x-forwarded-proto')?.split(',')[0].trim().toLowerCase();
    if (host && HOST_RE.test(host)) return `${proto === 'https' || proto === 'http' ? proto : url.protocol.slice(0, -1)}://${host}`;
  }
  return url.origin;
}

/** Rewrites the href of every link (`{ href, rel }` objects, at any depth) that starts with /api/v1. */
export function absoluteLinks<T>(body: T, origin: string): T {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Record<string, unknown>;
    // Geometries are large and hold no links: leave them as they are.
    if ('coordinates' in o) return o;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) out[k] = k === 'href' && typeof x === 'string' && x.startsWith(API_PREFIX) && 'rel' in o ? origin + x : walk(x);
    return out;
  };
  return walk(body) as T;
}
