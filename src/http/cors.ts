/**
 * CORS for browser clients, off unless origins are configured (`serve --cors-origin`, CATINTEL_CORS_ORIGINS).
 * Credentials travel in the Authorization header, never cookies, so no Allow-Credentials is sent and
 * `*` is safe for a public deployment. Browsers may read the rate-limit and request-id headers.
 */
export interface CorsOptions {
  /** Exact origins ("https://app.example.com"), or ["*"]. Empty: no CORS headers at all. */
  origins: string[];
}

const EXPOSE = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id, ETag, Location';
const ALLOW_HEADERS = 'Authorization, Content-Type, If-None-Match, X-Request-Id';
const MAX_AGE_SECONDS = '600';

function allowedOrigin(origin: string | null, o: CorsOptions): string | null {
  if (!origin || o.origins.length === 0) return null;
  if (o.origins.includes('*')) return '*';
  return o.origins.includes(origin) ? origin : null;
}

export function isPreflight(req: Request): boolean {
  return req.method === 'OPTIONS' && req.headers.has('origin') && req.headers.has('access-control-request-method');
}

/** Headers for an ordinary response. */
export function corsHeaders(req: Request, o: CorsOptions): Record<string, string> {
  const allow = allowedOrigin(req.headers.get('origin'), o);
  if (!allow) return o.origins.length && !o.origins.includes('*') ? { vary: 'Origin' } : {};
  return {
    'access-control-allow-origin': allow,
    'access-control-expose-headers': EXPOSE,
    ...(allow === '*' ? {} : { vary: 'Origin' }),
  };
}

/** Headers for a preflight (OPTIONS with Access-Control-Request-Method). */
export function preflightHeaders(req: Request, o: CorsOptions, allowMethods: string[]): Record<string, string> {
  const allow = allowedOrigin(req.headers.get('origin'), o);
  if (!allow) return corsHeaders(req, o);
  return {
    'access-control-allow-origin': allow,
    'access-control-allow-methods': allowMethods.join(', '),
    'access-control-allow-headers': ALLOW_HEADERS,
    'access-control-max-age': MAX_AGE_SECONDS,
    ...(allow === '*' ? {} : { vary: 'Origin' }),
  };
}

export function parseOrigins(v: string | undefined): string[] {
  if (!v) return [];
  return v
    .split(',')
    .map((s) => s.trim().replace(/\/$/, ''))
    .filter(Boolean);
}
