/**
 * `catintel trigger observe ID --value N --source TEXT` and POST /triggers/{id}/observations: a reading
 * entered by hand for one trigger, in its threshold's unit. For an industry loss (PCS-style estimate) or a
 * surge reading at a tide gauge the bond names, no feed supplies one and this is the only source; for the
 * other types it records a named source's figure (e.g. the calculation agent's report) that is evaluated
 * beside the feeds. The next evaluation uses the latest entered value per event; every entry keeps its
 * source, so receipts say whose number it was. The event may be named by id, slug or source id; it is
 * linked when the store holds exactly one such event, and kept as named otherwise.
 */
import { randomUUID } from 'node:crypto';
import { CatintelError, type FieldProblem } from '../errors.js';
import { findEvents } from '../store/events-read.js';
import { insertObservation } from '../triggers/history-store.js';
import { THRESHOLD_UNIT } from '../triggers/domain/types.js';
import { wellFormed } from '../triggers/domain/validate.js';
import { nowIso, requireTrigger, triggerIdParam } from './triggers-common.js';
import { defineHandler, type Caller, type RawInput } from './types.js';

interface ObserveInput {
  id: string;
  value: number;
  source: string;
  event?: string;
  observedAt?: string;
}

function parseObserve(raw: RawInput, caller: Caller): ObserveInput {
  const fromBody = caller.clientIp !== undefined;
  const id = triggerIdParam(raw);
  let v: Record<string, unknown> = raw;
  if (fromBody) {
    if (typeof raw.body !== 'object' || raw.body === null || Array.isArray(raw.body)) {
      throw new CatintelError(
        'validation_failed',
        'the body must be a JSON object such as {"value": 34000000000, "source": "PCS estimate 2022-10-05"}',
        { errors: [{ field: 'body', message: 'a JSON object' }] },
      );
    }
    v = raw.body as Record<string, unknown>;
  }
  const errors: FieldProblem[] = [];
  const allowed = fromBody
    ? ['value', 'source', 'event_id', 'observed_at']
    : ['id', 'value', 'source', 'event', 'observed_at'];
  if (fromBody)
    for (const k of Object.keys(v))
      if (!allowed.includes(k)) errors.push({ field: k, message: `unknown field; allowed: ${allowed.join(', ')}` });
  const value = typeof v.value === 'string' && v.value.trim() !== '' && !fromBody ? Number(v.value) : v.value;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    errors.push({ field: 'value', message: "a number of at least 0, in the unit of the trigger's threshold" });
  const source = v.source;
  if (typeof source !== 'string' || source.length === 0 || [...source].length > 200)
    errors.push({
      field: 'source',
      message: 'who reported the value, 1-200 characters (e.g. "PCS estimate 2022-10-05")',
    });
  const eventKey = fromBody ? v.event_id : v.event;
  if (eventKey !== undefined && (typeof eventKey !== 'string' || eventKey.length < 1 || eventKey.length > 200))
    errors.push({ field: fromBody ? 'event_id' : 'event', message: 'an event id, slug or source id' });
  const at = fromBody ? v.observed_at : v.observed_at;
  let observedAt: string | undefined;
  if (at !== undefined) {
    const ms =
      typeof at === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/i.test(at)
        ? Date.parse(at)
        : NaN;
    if (Number.isNaN(ms))
      errors.push({ field: 'observed_at', message: 'an ISO 8601 time with offset, e.g. 2022-10-05T00:00:00Z' });
    else observedAt = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  if (errors.length > 0) {
    throw new CatintelError(
      fromBody ? 'validation_failed' : 'invalid_parameter',
      errors.map((e) => `${e.field}: ${e.message}`).join('; '),
      { errors },
    );
  }
  return {
    id,
    value: value as number,
    source: wellFormed(source as string),
    event: typeof eventKey === 'string' ? wellFormed(eventKey) : undefined,
    observedAt,
  };
}

export const triggersObserve = defineHandler({
  name: 'triggers.observe',
  summary: "Enter a reading for a trigger (industry loss, surge, or a named source's figure)",
  writes: true,
  http: { method: 'POST', path: '/triggers/{id}/observations', access: 'agency', perAccount: true },
  cli: {
    command: ['trigger', 'observe'],
    args: ['id'],
    options: [
      { flags: '--value <n>', description: "the value in the unit of the trigger's threshold (USD, ft)" },
      { flags: '--source <text>', description: 'who reported it, e.g. "PCS estimate 2022-10-05"' },
      {
        flags: '--event <id>',
        description:
          'the event it belongs to (id, slug or source id such as AL092022; linked when the store holds it), optional',
      },
      { flags: '--observed-at <iso>', description: 'when the value was reported (default now)' },
    ],
    examples: [
      'catintel trigger observe 3f0c... --value 34000000000 --source "PCS estimate 2022-10-05" --event AL092022',
    ],
  },
  parse: parseObserve,
  async run(ctx, input, caller) {
    const t = await requireTrigger(ctx, caller, input.id);
    const now = nowIso(ctx);
    const matches = input.event ? await findEvents(ctx.db, input.event, ctx.clock().toISOString()) : [];
    const event = matches.length === 1 ? matches[0] : undefined;
    const row = {
      id: randomUUID(),
      trigger_id: t.id,
      event_ref: input.event ?? null,
      event_id: event?.id ?? null,
      value: input.value,
      unit: THRESHOLD_UNIT[t.threshold_type],
      source: input.source,
      observed_at: input.observedAt ?? now,
      entered_at: now,
    };
    await insertObservation(ctx.db, row);
    // Provenance (docs/contract.md#provenance): the reporter is the source; the value lives at the resource it was entered at.
    const provenance = { source_url: `/api/v1/triggers/${t.id}/observations`, ingested_at: now };
    return { body: { ...row, event_title: event?.title ?? null, ...provenance }, status: 201 };
  },
});
