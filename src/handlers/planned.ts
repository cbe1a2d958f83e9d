/**
 * Profile 1 endpoints of the contract that are not built yet. Each sits in the registry with its
 * access level from CONTRACT §2, so the route table, the access checks and the OpenAPI document cover
 * the whole contract today: a call is authenticated and tier-checked like any other, then answered
 * 501 not_implemented (problem+json). The issue that builds an endpoint replaces its line here with
 * the real handler (same method, path and access); a real handler bound to the same route also wins
 * over the stub, so forgetting to delete the line cannot shadow it.
 */
import { CatintelError } from '../errors.js';
import { defineHandler, type Handler, type HttpBinding } from './types.js';

function planned(name: string, summary: string, http: Omit<HttpBinding, 'planned'>): Handler {
  return defineHandler({
    name: `planned.${name}`,
    summary,
    http: { ...http, planned: true },
    parse: () => ({}),
    async run() {
      // Never reached: the HTTP layer answers planned routes itself (src/http/pipeline.ts).
      throw new CatintelError('internal_error', `${name} is not implemented yet`);
    },
  });
}

export const PLANNED: Handler[] = [
  planned('scenarios.run', 'Run a hypothetical disaster scenario with impact estimates', { method: 'POST', path: '/scenarios/run', access: 'analyst' }),
  planned('portfolio.list', 'Portfolios with nested locations', { method: 'GET', path: '/portfolio', access: 'agency', perAccount: true }),
  planned('portfolio.create', 'Create a portfolio from JSON or an OED location CSV', { method: 'POST', path: '/portfolio', access: 'agency', accepts: ['application/json', 'text/csv'], perAccount: true }),
  planned('portfolio.exposure', 'Portfolio exposure against active consequence rings', { method: 'GET', path: '/portfolio/exposure', access: 'agency', perAccount: true }),
  planned('locations.list', 'Saved locations of the caller', { method: 'GET', path: '/locations', access: 'free', perAccount: true }),
  planned('locations.create', 'Save a location', { method: 'POST', path: '/locations', access: 'free', perAccount: true }),
  planned('locations.exposure', 'Saved locations against active event rings', { method: 'GET', path: '/locations/exposure', access: 'free', perAccount: true }),
  planned('locations.alerts', 'Unread alerts of saved locations', { method: 'GET', path: '/locations/alerts', access: 'free', perAccount: true }),
];
