/**
 * GET /triggers/{id}/history and `catintel trigger history ID`: the receipts, newest first, paged with
 * `limit` (default 100, max 1000) and an opaque `cursor` (links.next), like the event collections.
 */
import { historyPage } from '../triggers/history-store.js';
import { decodeCursor, encodeCursor, int } from './params.js';
import { requireTrigger, triggerIdParam, triggerJson } from './triggers-common.js';
import { defineHandler } from './types.js';

interface After {
  at: string;
  id: string;
}
const isAfter = (v: unknown): v is After =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as After).at === 'string' &&
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test((v as After).at) &&
  typeof (v as After).id === 'string';

export const triggersHistory = defineHandler({
  name: 'triggers.history',
  summary: 'Evaluation history (receipts) of a trigger with threshold proximity',
  http: { method: 'GET', path: '/triggers/{id}/history', access: 'agency', perAccount: true },
  cli: {
    command: ['trigger', 'history'],
    args: ['id'],
    options: [
      { flags: '--limit <n>', description: 'entries per page (default 100, max 1000)' },
      { flags: '--cursor <cursor>', description: 'the next page (from links.next of the previous one)' },
    ],
    examples: ['catintel trigger history 3f0c...', 'catintel trigger history 3f0c... --limit 10 --json'],
  },
  // The cursor is read after the trigger is found: an unknown trigger is 404 whatever the cursor says.
  parse: (raw) => ({ id: triggerIdParam(raw), limit: int(raw, 'limit', { min: 1, max: 1000 }, 100), raw }),
  async run(ctx, input, caller) {
    const t = await requireTrigger(ctx, caller, input.id);
    const page = await historyPage(ctx.db, t.id, input.limit, decodeCursor(input.raw, isAfter));
    const last = page.rows[page.rows.length - 1];
    const links: Array<{ rel: string; type: string; href: string }> = [
      { rel: 'self', type: 'application/json', href: `/api/v1/triggers/${t.id}/history?limit=${input.limit}` },
    ];
    if (last && page.rows.length === input.limit) {
      links.push({
        rel: 'next',
        type: 'application/json',
        href: `/api/v1/triggers/${t.id}/history?limit=${input.limit}&cursor=${encodeCursor({ at: last.evaluated_at, id: last.id })}`,
      });
    }
    return {
      body: {
        trigger: triggerJson(t),
        numberMatched: page.total,
        numberReturned: page.rows.length,
        entries: page.rows,
        links,
      },
      notes:
        page.total === 0
          ? ['no evaluations yet; run `catintel trigger evaluate` (or serve --ingest-every)']
          : undefined,
    };
  },
});
