/**
 * Pieces the trigger handlers share: the trigger id parameter, the 404 for an id the caller's account does
 * not own (never 403: another account's trigger must not be discoverable), the per-tier active trigger
 * limit (docs/contract.md#limits) and the JSON shape of a trigger.
 */
import type { Context } from '../context.js';
import { CatintelError } from '../errors.js';
import { getTrigger } from '../triggers/store.js';
import { EVALUATED_FROM, type TriggerView } from '../triggers/domain/types.js';
import { required } from './params.js';
import type { Caller, Tier } from './types.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Active triggers per account by tier (docs/contract.md#limits); null = unlimited. */
export const TRIGGER_LIMIT: Record<Tier, number | null> = { free: 0, agency: 3, analyst: 10, enterprise: null };

export function triggerIdParam(raw: Record<string, unknown>): string {
  const id = required(raw, 'id');
  if (!UUID_RE.test(id)) {
    throw new CatintelError(
      'invalid_parameter',
      `id: "${id.slice(0, 60)}" is not a trigger id (a UUID, as \`trigger list\` shows)`,
      { errors: [{ field: 'id', message: 'a trigger id (UUID)' }] },
    );
  }
  return id.toLowerCase();
}

export async function requireTrigger(ctx: Context, caller: Caller, id: string): Promise<TriggerView> {
  const t = await getTrigger(ctx.db, caller.account, id);
  if (!t)
    throw new CatintelError(
      'not_found',
      `no trigger ${id} in account ${caller.account}; list yours with GET /api/v1/triggers (CLI: catintel trigger list)`,
    );
  return t;
}

/** A trigger as the API shows it (docs/contract.md#triggers): every field, status, created_at, last_evaluated_at, state, proximity_pct, evaluated_from. */
export function triggerJson(t: TriggerView): Record<string, unknown> {
  return {
    id: t.id,
    name: t.name,
    peril: t.peril,
    lat: t.lat,
    lng: t.lng,
    radius_km: t.radius_km,
    threshold_type: t.threshold_type,
    threshold_value: t.threshold_value,
    alert_at_pct: t.alert_at_pct,
    notes: t.notes,
    status: t.status,
    created_at: t.created_at,
    deactivated_at: t.deactivated_at,
    last_evaluated_at: t.last_evaluated_at,
    state: t.state,
    proximity_pct: t.proximity_pct,
    // How it moves: a feed's records, or only values entered with `trigger observe` (docs/triggers.md).
    evaluated_from: EVALUATED_FROM[t.threshold_type],
  };
}

export const nowIso = (ctx: Context) =>
  ctx
    .clock()
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
