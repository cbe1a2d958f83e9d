/**
 * GET /triggers and `catintel trigger list`: the caller's active triggers with their state and proximity_pct,
 * and for each live hurricane whose forecast ensemble reaches a wind or pressure trigger, the share of the
 * members in which it fires, as the last evaluation round stored it (docs/basis-risk.md#probability-to-trigger-now).
 */
import { fireProbabilitiesOf } from '../triggers/fire-probability.js';
import { listActiveTriggers } from '../triggers/store.js';
import { triggerJson } from './triggers-common.js';
import { defineHandler } from './types.js';

export const triggersList = defineHandler({
  name: 'triggers.list',
  summary: "The caller's active parametric triggers with state and proximity_pct",
  http: { method: 'GET', path: '/triggers', access: 'agency', perAccount: true },
  cli: {
    command: ['trigger', 'list'],
    examples: ['catintel trigger list', 'catintel trigger list --account alice@example.com --json'],
  },
  parse: () => ({}),
  async run(ctx, _input, caller) {
    const rows = await listActiveTriggers(ctx.db, caller.account);
    const probabilities = await fireProbabilitiesOf(
      ctx.db,
      rows.map((t) => t.id),
    );
    const triggers = rows.map((t) => ({ ...triggerJson(t), probability_to_trigger: probabilities.get(t.id) ?? [] }));
    return {
      body: { account: caller.account, count: rows.length, triggers },
      notes: rows.length === 0 ? ['no active triggers; create one with `catintel trigger create --help`'] : undefined,
    };
  },
});
