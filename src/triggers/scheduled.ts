/**
 * The server's evaluation round after each scheduled ingest (`catintel serve --ingest-every N`): the same
 * round as `catintel trigger evaluate`, logged, never fatal to the server (a failed round is retried on
 * the next tick, and re-runs add nothing, so nothing is lost or doubled).
 */
import type { Context } from '../context.js';
import { evaluateTriggers } from './run.js';

export async function evaluateAfterIngest(ctx: Context): Promise<void> {
  try {
    const s = await evaluateTriggers(ctx);
    ctx.log('info', 'trigger evaluation', {
      triggers: s.triggers_evaluated,
      events: s.events_considered,
      entries_added: s.entries_added,
      alerts_raised: s.alerts_raised,
      newly_triggered: s.newly_triggered.map((t) => t.trigger_id),
    });
  } catch (err) {
    ctx.log('warn', 'trigger evaluation failed', { error: (err as Error).message });
  }
}
