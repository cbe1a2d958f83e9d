/**
 * `catintel trigger verify ID`: recomputes every history entry of the trigger from its stored inputs and
 * reports those that no longer agree; exit 1 when any does (src/triggers/verify.ts).
 */
import { verifyTrigger, type VerifyReport } from '../triggers/verify.js';
import { requireTrigger, triggerIdParam } from './triggers-common.js';
import { defineHandler } from './types.js';

export const triggersVerify = defineHandler<{ id: string }, VerifyReport>({
  name: 'triggers.verify',
  summary: 'Recompute every history entry of a trigger from its stored inputs',
  cli: {
    command: ['trigger', 'verify'],
    args: ['id'],
    examples: ['catintel trigger verify 3f0c...', 'catintel trigger verify 3f0c... --json || echo "receipts disagree"'],
    exitCode: (body) => (body.disagreeing.length > 0 ? 1 : 0),
  },
  parse: (raw) => ({ id: triggerIdParam(raw) }),
  async run(ctx, input, caller) {
    const t = await requireTrigger(ctx, caller, input.id);
    return { body: await verifyTrigger(ctx.db, t) };
  },
});
