/**
 * `catintel trigger evaluate [--fail-on-breach]`: one evaluation round over every active trigger in the
 * store (all accounts: this is the operator's cron job; the server runs the same round after each
 * scheduled ingest). Exit 3 with --fail-on-breach when a trigger was newly triggered (docs/contract.md#cli-exit-codes).
 */
import { evaluateTriggers, type EvaluationSummary } from '../triggers/run.js';
import { whyNoneLive } from './live-hint.js';
import { defineHandler, type RawInput } from './types.js';

export const triggersEvaluate = defineHandler<{ failOnBreach: boolean }, EvaluationSummary>({
  name: 'triggers.evaluate',
  summary: 'Evaluate every active trigger against the live events (cron)',
  writes: true,
  keepsEvents: true,
  evaluatesTriggers: true,
  cli: {
    command: ['trigger', 'evaluate'],
    options: [{ flags: '--fail-on-breach', description: 'exit 3 when a trigger is newly triggered' }],
    examples: ['catintel trigger evaluate', 'catintel ingest && catintel trigger evaluate --json --fail-on-breach'],
    exitCode: (body, input) => (input.failOnBreach && body.newly_triggered.length > 0 ? 3 : 0),
  },
  parse: (raw: RawInput) => ({ failOnBreach: raw.fail_on_breach === true || raw.fail_on_breach === 'true' }),
  async run(ctx) {
    const body = await evaluateTriggers(ctx);
    // The embedded snapshot read at today's date has no live event: a round against nothing says why, and how to
    // evaluate at the snapshot's instant, rather than reporting "0 live events" as if the store were current.
    const notes =
      body.events_considered === 0 && body.triggers_evaluated > 0
        ? await whyNoneLive(ctx, body.evaluated_at, 'trigger evaluate')
        : undefined;
    return { body, notes };
  },
});
