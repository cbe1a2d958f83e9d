/**
 * POST /triggers and `catintel trigger create` (docs/contract.md#triggers): validates the body (422 naming every bad
 * field; on the CLI the same problems as bad options, exit 2), enforces the tier's active trigger limit
 * (403 trigger_limit_reached) and answers 201 with the trigger and its Location.
 */
import { randomUUID } from 'node:crypto';
import { CatintelError } from '../errors.js';
import { validateTrigger, type TriggerFields } from '../triggers/domain/validate.js';
import { getTrigger, insertTrigger } from '../triggers/store.js';
import { TRIGGER_LIMIT, nowIso, triggerJson } from './triggers-common.js';
import { defineHandler, type Caller, type RawInput } from './types.js';

const NUMERIC = ['lat', 'lng', 'radius_km', 'threshold_value', 'alert_at_pct'];

function parseCreate(raw: RawInput, caller: Caller): TriggerFields {
  const fromBody = caller.clientIp !== undefined;
  let values: Record<string, unknown>;
  if (fromBody) {
    if (raw.body === undefined)
      throw new CatintelError(
        'invalid_request',
        'send a JSON body with name, peril, lat, lng, radius_km, threshold_type, threshold_value',
      );
    if (typeof raw.body !== 'object' || raw.body === null || Array.isArray(raw.body)) {
      throw new CatintelError('validation_failed', 'the body must be a JSON object', {
        errors: [{ field: 'body', message: 'a JSON object' }],
      });
    }
    values = raw.body as Record<string, unknown>;
  } else {
    // CLI option values arrive as text: numbers are read here, so "abc" is reported like a bad JSON number.
    values = {};
    for (const k of [
      'name',
      'peril',
      'lat',
      'lng',
      'radius_km',
      'threshold_type',
      'threshold_value',
      'alert_at_pct',
      'notes',
    ]) {
      const v = raw[k];
      if (v === undefined) continue;
      values[k] =
        NUMERIC.includes(k) && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v;
    }
  }
  const { fields, errors } = validateTrigger(values);
  if (!fields) {
    const message = errors.map((e) => `${e.field}: ${e.message}`).join('; ');
    throw new CatintelError(fromBody ? 'validation_failed' : 'invalid_parameter', message, { errors });
  }
  return fields;
}

export const triggersCreate = defineHandler({
  name: 'triggers.create',
  summary: 'Create a parametric trigger',
  writes: true,
  keepsEvents: true,
  http: { method: 'POST', path: '/triggers', access: 'agency', perAccount: true },
  cli: {
    command: ['trigger', 'create'],
    options: [
      { flags: '--name <name>', description: 'label of the trigger (1-200 characters)' },
      { flags: '--peril <peril>', description: 'event type watched: hurricane, earthquake, flood, ...' },
      { flags: '--lat <deg>', description: 'site latitude (WGS84)' },
      { flags: '--lng <deg>', description: 'site longitude (WGS84)' },
      { flags: '--radius-km <km>', description: 'monitoring radius, (0, 2000] km' },
      {
        flags: '--threshold-type <type>',
        description:
          'wind_speed_kt | central_pressure_mb (hurricane, from nhc); magnitude (earthquake, from usgs-earthquakes); gauge_stage_ft (flood, from usgs-gauges); storm_surge_ft (hurricane) and industry_loss_usd (any): manual observations',
      },
      { flags: '--threshold-value <n>', description: 'threshold in the unit of the type (pressure fires BELOW it)' },
      { flags: '--alert-at-pct <pct>', description: 'alert at this percentage of the threshold (default 80)' },
      { flags: '--notes <text>', description: 'free text, at most 2000 characters' },
    ],
    examples: [
      'catintel trigger create --name "Fort Myers 100 kt" --peril hurricane --lat 26.64 --lng -81.87 --radius-km 50 --threshold-type wind_speed_kt --threshold-value 100',
      'catintel trigger create --name "LA M7" --peril earthquake --lat 34.05 --lng -118.25 --radius-km 100 --threshold-type magnitude --threshold-value 7 --json',
    ],
  },
  parse: parseCreate,
  async run(ctx, input, caller) {
    const limit = TRIGGER_LIMIT[caller.tier];
    const id = randomUUID();
    // Count and insert in one transaction: two concurrent creates cannot both take the last slot. On a cluster
    // store, replicas count in their own PostgreSQL transactions, which do not see each other's insert: the
    // account's creates also take turns there (Store.inTurn).
    await ctx.db.inTurn(`create a trigger of ${caller.account}`, () =>
      ctx.db.transaction(async (tx) => {
        if (limit !== null) {
          const rows = await tx.all<{ n: bigint }>(
            `SELECT count(*) AS n FROM triggers WHERE account = $a AND status = 'active'`,
            { a: caller.account },
          );
          const n = Number(rows[0]?.n ?? 0);
          if (n >= limit) {
            throw new CatintelError(
              'trigger_limit_reached',
              `the ${caller.tier} tier allows ${limit} active triggers and account ${caller.account} has ${n}; deactivate one (DELETE /api/v1/triggers/{id}, CLI: catintel trigger deactivate ID) or move to a higher tier`,
            );
          }
        }
        await insertTrigger(tx, { id, account: caller.account, ...input, status: 'active', created_at: nowIso(ctx) });
      }),
    );
    const t = (await getTrigger(ctx.db, caller.account, id))!;
    return { body: triggerJson(t), status: 201, headers: { location: `/api/v1/triggers/${id}` } };
  },
});
