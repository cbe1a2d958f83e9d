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
 * The origin the client called: the request's own, or when the socket's peer is a trusted proxy
 * (--trust-proxy) its X-Forwarded-Proto and X-Forwarded-Host when they are well-formed. Of a list, the
 * last entry: the one the proxy next to us wrote, where the first may be the client's own (docs/contract.md#client-address).
 */
export function originOf(req: Request, url: URL, viaTrustedProxy: boolean): string {
  if (viaTrustedProxy) {
    const host = lastEntry(req.headers.get('x-forwarded-host'));
    const proto = lastEntry(req.headers.get('x-forwarded-proto'))?.toLowerCase();
    if (host && HOST_RE.test(host))
      return `${proto === 'https' || proto === 'http' ? proto : url.protocol.slice(0, -1)}://${host}`;
  }
  return url.origin;
}

function lastEntry(header: string | null): string | undefined {
  return header?.slice(header.lastIndexOf(',') + 1).trim();
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
    for (const [k, x] of Object.entries(o))
      out[k] = k === 'href' && typeof x === 'string' && x.startsWith(API_PREFIX) && 'rel' in o ? origin + x : walk(x);
    return out;
  };
  return walk(body) as T;
}
