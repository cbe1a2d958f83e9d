/** GET /scenarios/{id} and `catintel scenario show ID`: a stored scenario's result as its run answered it (analyst; another account's is 404). */
import { CatintelError, invalidParameter } from '../errors.js';
import { getScenario } from '../intelligence/scenarios/store.js';
import { required } from './params.js';
import { defineHandler } from './types.js';

export const scenariosShow = defineHandler({
  name: 'scenarios.show',
  summary: 'A stored what-if scenario: its request and result',
  http: { method: 'GET', path: '/scenarios/{id}', access: 'analyst', perAccount: true },
  cli: {
    command: ['scenario', 'show'],
    args: ['id'],
    examples: ['catintel scenario show 3f6c2a9e-...', 'catintel scenario show 3f6c2a9e-... --json'],
  },
  parse: (raw) => {
    const id = required(raw, 'id');
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
      throw invalidParameter('id', `"${id.slice(0, 60)}" is not a scenario id (a UUID from scenario run)`);
    return { id: id.toLowerCase() };
  },
  async run(ctx, { id }, caller) {
    const row = await getScenario(ctx.db, id, caller.account);
    if (!row)
      throw new CatintelError(
        'not_found',
        `no scenario ${id} for account ${caller.account}; run one with POST /scenarios/run (CLI: catintel scenario run)`,
      );
    return { body: JSON.parse(row.result) as unknown };
  },
});
