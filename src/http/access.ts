/**
 * The access rules of a route (docs/contract.md#access), from its binding in the registry: the tier it needs,
 * raised by query values such as format=oasis, or the operator's admin token for /admin routes.
 * No credential where one is needed: 401 with a Bearer challenge; a credential below the level: 403.
 */
import { missingCredential, type Principal } from '../auth/authenticate.js';
import { CatintelError } from '../errors.js';
import { TIERS, tierAtLeast, type Tier } from '../handlers/types.js';
import type { Route } from './routes.js';

export function checkAccess(route: Route, url: URL, p: Principal | null): void {
  if (route.admin) {
    if (!p)
      throw missingCredential(
        `${url.pathname} is for the server operator: send the admin token as Authorization: Bearer`,
      );
    if (p.kind !== 'admin')
      throw new CatintelError(
        'insufficient_tier',
        `${url.pathname} is for the server operator only (the admin token of this server run)`,
      );
    return;
  }
  let need: Tier = route.access;
  let why = '';
  for (const [param, levels] of Object.entries(route.accessByQuery ?? {})) {
    const v = url.searchParams.get(param);
    const level = v === null ? undefined : levels[v];
    if (level && TIERS.indexOf(level) > TIERS.indexOf(need)) {
      need = level;
      why = ` with ${param}=${v}`;
    }
  }
  if (need === 'free') return;
  if (!p)
    throw missingCredential(
      `${url.pathname}${why} needs the ${need} tier or above: send Authorization: Bearer <token or API key>`,
    );
  if (!tierAtLeast(p.tier, need)) {
    throw new CatintelError(
      'insufficient_tier',
      `${url.pathname}${why} needs the ${need} tier or above; this credential is ${p.tier}`,
    );
  }
}
