/**
 * The parameter and body checks of every route are compiled from the OpenAPI document once a process:
 * a second app (a server restarted in-process, or the next test) reuses the first one's checks, and they
 * still refuse what the document refuses.
 */
import { describe, expect, it } from 'vitest';
import { CatintelError } from '../../src/errors.js';
import { HANDLERS } from '../../src/handlers/registry.js';
import { defineHandler } from '../../src/handlers/types.js';
import { bodyChecks } from '../../src/http/body-check.js';
import { loadOpenApi } from '../../src/http/openapi.js';
import { paramChecks } from '../../src/http/param-check.js';
import { RouteTable, type Route } from '../../src/http/routes.js';

const twin = (routes: Route[], r: Route) => routes.find((x) => x.method === r.method && x.fullPath === r.fullPath)!;

describe('compiled route checks', () => {
  it('are compiled once a process: a second route table gets the same checks', () => {
    const doc = loadOpenApi();
    const first = new RouteTable(HANDLERS).routes;
    const second = new RouteTable(HANDLERS).routes;
    const [a, b] = [paramChecks(doc, first), paramChecks(doc, second)];
    expect(a.size).toBeGreaterThan(30);
    expect(b.size).toBe(a.size);
    for (const [route, check] of a) expect(b.get(twin(second, route)), `${route.method} ${route.fullPath}`).toBe(check);
  });

  it('still refuse a value the document does not allow, on the second table as on the first', () => {
    const doc = loadOpenApi();
    for (let i = 0; i < 2; i++) {
      const routes = new RouteTable(HANDLERS).routes;
      const live = routes.find((r) => r.method === 'GET' && r.fullPath === '/api/v1/events/live')!;
      const check = paramChecks(doc, routes).get(live)!;
      expect(() => check({ limit: 'many' }, {})).toThrow(CatintelError);
      expect(() => check({ limit: 'many' }, {})).toThrow(/limit/);
      expect(() => check({ limit: '5' }, {})).not.toThrow();
    }
  });

  it('compile a planned POST body check once, and it still names the field the document refuses', () => {
    const doc = loadOpenApi();
    const planned = defineHandler({
      name: 'planned.locations-create',
      summary: 'planned',
      http: { method: 'POST', path: '/locations', access: 'free', planned: true },
      parse: () => ({}),
      run: async () => ({ body: {} }),
    });
    const first = new RouteTable([planned]).routes;
    const second = new RouteTable([planned]).routes;
    const [a, b] = [bodyChecks(doc, first), bodyChecks(doc, second)];
    const route = first.find((r) => r.fullPath === '/api/v1/locations')!;
    expect(a.get(route)).toBeDefined();
    expect(b.get(twin(second, route))).toBe(a.get(route));
    expect(() => b.get(twin(second, route))!({ name: 'home', lat: 38.8 }, 'application/json')).toThrow(/lng/);
  });
});
