/** GET /triggers and `catintel trigger list`: the caller's active triggers with their state and proximity_pct. */
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
    return {
      body: { account: caller.account, count: rows.length, triggers: rows.map(triggerJson) },
      notes: rows.length === 0 ? ['no active triggers; create one with `catintel trigger create --help`'] : undefined,
    };
  },
});
