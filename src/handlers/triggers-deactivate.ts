/**
 * DELETE /triggers/{id} and `catintel trigger deactivate ID` (an addition to the specification): the
 * trigger stops being evaluated and no longer counts against the tier's limit. Its history stays, so
 * receipts remain verifiable; deactivating twice answers the same inactive trigger.
 */
import { deactivateTrigger } from '../triggers/store.js';
import { nowIso, requireTrigger, triggerIdParam, triggerJson } from './triggers-common.js';
import { defineHandler } from './types.js';

export const triggersDeactivate = defineHandler({
  name: 'triggers.deactivate',
  summary: 'Deactivate a trigger (its history is kept)',
  writes: true,
  keepsEvents: true,
  http: { method: 'DELETE', path: '/triggers/{id}', access: 'agency', perAccount: true },
  cli: { command: ['trigger', 'deactivate'], args: ['id'], examples: ['catintel trigger deactivate 3f0c...'] },
  parse: (raw) => ({ id: triggerIdParam(raw) }),
  async run(ctx, input, caller) {
    await requireTrigger(ctx, caller, input.id);
    const t = (await deactivateTrigger(ctx.db, caller.account, input.id, nowIso(ctx)))!;
    return { body: triggerJson(t) };
  },
});
