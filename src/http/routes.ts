/**
 * The one route table: every handler with an HTTP binding (the registry, real and planned endpoints)
 * plus the platform's own routes (OpenAPI document, health). Matching prefers static segments, so
 * `/events/nearby` beats `/events/{id}` whatever the registry order; a path that matches with another
 * method gives 405 with `Allow`, one that matches nothing 404.
 */
import type { Handler, HttpBinding } from '../handlers/types.js';

export const API_PREFIX = '/api/v1';

export type PlatformRoute = 'openapi' | 'healthz' | 'landing';

export interface Route extends HttpBinding {
  /** Full path template, '/api/v1/events/{id}'. */
  fullPath: string;
  handler?: Handler;
  platform?: PlatformRoute;
}

export type Match =
  | { kind: 'route'; route: Route; params: Record<string, string> }
  | { kind: 'method'; allow: string[] }
  | { kind: 'none' };

interface Compiled {
  route: Route;
  segments: (string | { param: string })[];
  /** No parameter: a path matches it one way only (RouteTable.staticMatches). */
  isStatic: boolean;
}

export class RouteTable {
  readonly routes: Route[];
  /** The templates by number of segments, static segments before parameters, position by position. */
  private bySegments = new Map<number, Compiled[]>();
  /**
   * Matches of templates with no parameter, by method and path as requested: such a path matches one way
   * only, and the busiest endpoints (/events/live, /events/nearby) take no path parameter. Bounded: a path
   * gets an entry only when it spells a static template (with or without the trailing slash).
   */
  private staticMatches = new Map<string, Map<string, Match>>();

  constructor(handlers: Handler[]) {
    const byKey = new Map<string, Route>();
    const add = (r: Route) => {
      const key = `${r.method} ${r.fullPath}`;
      const existing = byKey.get(key);
      if (existing && !existing.planned && !r.planned) {
        throw new Error(`route ${key} is bound twice (${existing.handler?.name} and ${r.handler?.name})`);
      }
      // A real handler replaces a planned stub on the same route, in either order.
      if (!existing || existing.planned) byKey.set(key, r);
    };
    for (const h of handlers) if (h.http) add({ ...h.http, fullPath: API_PREFIX + h.http.path, handler: h });
    // The landing page answers /api/v1 and /api/v1/ (a trailing slash is ignored when matching).
    add({ method: 'GET', path: '/', fullPath: API_PREFIX, access: 'free', platform: 'landing' });
    add({
      method: 'GET',
      path: '/openapi.json',
      fullPath: `${API_PREFIX}/openapi.json`,
      access: 'free',
      platform: 'openapi',
    });
    add({ method: 'GET', path: '/healthz', fullPath: `${API_PREFIX}/healthz`, access: 'free', platform: 'healthz' });
    // Load balancers and orchestrators probe the root path by convention.
    add({ method: 'GET', path: '/healthz', fullPath: '/healthz', access: 'free', platform: 'healthz' });
    this.routes = [...byKey.values()];
    const compiled: Compiled[] = this.routes
      .map((route) => {
        const segments = route.fullPath
          .split('/')
          .slice(1)
          .map((s) => (/^\{\w+\}$/.test(s) ? { param: s.slice(1, -1) } : s));
        return { route, segments, isStatic: segments.every((s) => typeof s === 'string') };
      })
      // Static segments before parameters, position by position.
      .sort((a, b) => specificity(a).localeCompare(specificity(b)));
    for (const c of compiled) {
      const same = this.bySegments.get(c.segments.length);
      if (same) same.push(c);
      else this.bySegments.set(c.segments.length, [c]);
    }
  }

  match(method: string, pathname: string): Match {
    const known = this.staticMatches.get(pathname)?.get(method);
    if (known) return known;
    const parts = (pathname.endsWith('/') ? pathname.slice(0, -1) : pathname).split('/').slice(1);
    let allow: Set<string> | undefined;
    let template: string | undefined;
    // Only templates of as many segments can match.
    for (const c of this.bySegments.get(parts.length) ?? NO_TEMPLATES) {
      // Only the most specific template that fits the path answers it: /triggers/alerts is that resource,
      // not a trigger whose id is "alerts", so DELETE there is 405 and OPTIONS does not offer it.
      if (template !== undefined && c.route.fullPath !== template) continue;
      const params = matchSegments(c.segments, parts);
      if (!params) continue;
      template = c.route.fullPath;
      if (c.route.method === method || (method === 'HEAD' && c.route.method === 'GET')) {
        const match: Match = { kind: 'route', route: c.route, params };
        if (c.isStatic) {
          const byMethod = this.staticMatches.get(pathname) ?? new Map<string, Match>();
          Object.freeze(params);
          this.staticMatches.set(pathname, byMethod.set(method, Object.freeze(match)));
        }
        return match;
      }
      (allow ??= new Set()).add(c.route.method);
    }
    if (!allow) return { kind: 'none' };
    return { kind: 'method', allow: allowedMethods(allow) };
  }

  /** The methods a path answers (for Allow on 405 and OPTIONS); empty for unknown paths. */
  allowedAt(pathname: string): string[] {
    const m = this.match('\u0000', pathname);
    return m.kind === 'method' ? m.allow : [];
  }
}

const NO_TEMPLATES: Compiled[] = [];

function allowedMethods(methods: Set<string>): string[] {
  const out = [...methods];
  if (methods.has('GET')) out.push('HEAD');
  out.push('OPTIONS');
  return out.sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
}
const ORDER = ['GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS'];

function specificity(c: Compiled): string {
  return c.segments.map((s) => (typeof s === 'string' ? '0' : '1')).join('') + '2';
}

function matchSegments(segments: Compiled['segments'], parts: string[]): Record<string, string> | null {
  if (segments.length !== parts.length) return null;
  // The static segments first: most templates tried fail there, before any parameter is decoded or kept.
  for (let i = 0; i < parts.length; i++) {
    const s = segments[i];
    if (typeof s === 'string' ? s !== parts[i] : parts[i] === '') return null;
  }
  const params: Record<string, string> = {};
  for (let i = 0; i < parts.length; i++) {
    const s = segments[i];
    if (typeof s === 'string') continue;
    try {
      params[s.param] = decodeURIComponent(parts[i]);
    } catch {
      return null; // malformed percent-encoding cannot name anything we serve
    }
  }
  return params;
}
