/**
 * Profile 1 endpoints of the contract that are not built yet. Each sits in the registry with its
 * access level from docs/contract.md#access, so the route table, the access checks and the OpenAPI document cover
 * the whole contract today: a call is authenticated and tier-checked like any other, then answered
 * 501 not_implemented (problem+json). The issue that builds an endpoint replaces its line here with
 * the real handler (same method, path and access); a real handler bound to the same route also wins
 * over the stub, so forgetting to delete the line cannot shadow it.
 */
import { CatintelError } from '../errors.js';
import { defineHandler, type Handler, type HttpBinding } from './types.js';

export function planned(name: string, summary: string, http: Omit<HttpBinding, 'planned'>): Handler {
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

export const PLANNED: Handler[] = [];
