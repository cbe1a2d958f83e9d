/**
 * GET /triggers/alerts and `catintel trigger alerts`: the account's unread trigger notifications (an alert
 * when a trigger first reaches alert_at_pct for an event, and one when it is triggered). Like
 * /locations/alerts (docs/contract.md#portfolios), reading marks them read only with mark_read=true.
 */
import { CatintelError } from '../errors.js';
import { unreadAlerts } from '../triggers/history-store.js';
import { str } from './params.js';
import { nowIso } from './triggers-common.js';
import { defineHandler, type RawInput } from './types.js';

function markRead(raw: RawInput): boolean {
  const v = raw.mark_read;
  if (v === undefined || v === false || v === 'false') return false;
  if (v === true || v === 'true') return true;
  throw new CatintelError('invalid_parameter', `mark_read: "${String(str(raw, 'mark_read'))}" must be true or false`, {
    errors: [{ field: 'mark_read', message: 'true or false' }],
  });
}

export const triggersAlerts = defineHandler({
  name: 'triggers.alerts',
  summary: 'Unread trigger notifications (alert and triggered) of the caller',
  writes: true,
  keepsEvents: true,
  http: { method: 'GET', path: '/triggers/alerts', access: 'agency', perAccount: true },
  cli: {
    command: ['trigger', 'alerts'],
    options: [{ flags: '--mark-read', description: 'mark the returned notifications read' }],
    examples: ['catintel trigger alerts', 'catintel trigger alerts --mark-read --json'],
  },
  parse: (raw) => ({ markRead: markRead(raw) }),
  async run(ctx, input, caller) {
    const alerts = await unreadAlerts(ctx.db, caller.account, input.markRead, nowIso(ctx));
    return { body: { account: caller.account, count: alerts.length, marked_read: input.markRead, alerts } };
  },
});
