/**
 * Probability to trigger now (docs/basis-risk.md#probability-to-trigger-now): Hurricane Ian replayed from
 * its b-deck at fixes before and after landfall (`--as-of`), the Fort Myers 100-kt trigger evaluated each
 * time, and `trigger list` / GET /triggers read: the share of the storm's 50 ensemble members in which the
 * trigger fires, with the best track it came from, rises as landfall nears and is 1 once the trigger has
 * fired.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../src/config/defaults.js';
import { Store } from '../src/store/db.js';
import { cli, tempDir } from './helpers/cli.js';
import { FORT_MYERS_OPTIONS } from './helpers/fort-myers-trigger.js';
import { sharedData } from './helpers/paths.js';
import { contextOn, platform } from './http/helpers/harness.js';

const BDECK = sharedData('hazard_history/hurricanes/bal092022.dat');
/** About 31, 19, 7 and 1 hours before Ian's landfall at Cayo Costa (2022-09-28 19:05 UTC), and after it. */
const TIMES = [
  '2022-09-27T12:00:00Z',
  '2022-09-28T00:00:00Z',
  '2022-09-28T12:00:00Z',
  '2022-09-28T18:00:00Z',
  '2022-09-29T06:00:00Z',
];
const [FAR, DAY, , HOUR, AFTER] = TIMES;

let dir: string;
const lists = new Map<string, Record<string, any>>();
const dbs = new Map<string, string>();

async function replay(asOf: string): Promise<void> {
  const db = path.join(dir, `ian-${asOf.replace(/:/g, '')}.duckdb`);
  dbs.set(asOf, db);
  const at = ['--db', db, '--as-of', asOf, '--quiet'];
  const created = await cli([...at, 'trigger', 'create', ...FORT_MYERS_OPTIONS]);
  expect(created.code, created.stderr).toBe(0);
  // The round after the ingest computes it (as `catintel serve` does after each scheduled ingest).
  expect((await cli([...at, 'ingest', 'nhc', '--from', BDECK])).code).toBe(0);
  expect((await cli([...at, 'trigger', 'evaluate'])).code).toBe(0);
  const list = await cli([...at, '--json', 'trigger', 'list']);
  expect(list.code, list.stderr).toBe(0);
  lists.set(asOf, list.json().triggers[0]);
}

beforeAll(async () => {
  dir = tempDir('catintel-fire-probability-');
  for (const t of TIMES) await replay(t);
  for (const t of TIMES) {
    const p = lists.get(t)!.probability_to_trigger[0];
    console.log(`Ian as of ${t}: ${p?.probability} (${p?.members_firing} of ${p?.members}) from ${p?.advisory}`);
  }
}, 600_000);

describe('probability to trigger now: Ian replayed at its b-deck fixes, the Fort Myers trigger', () => {
  it('names the best track each probability came from, its members and the forecast they perturb', () => {
    expect(lists.get(HOUR)!.probability_to_trigger).toEqual([
      {
        event_id: expect.any(String),
        source_id: 'al092022',
        probability: expect.any(Number),
        members: 50,
        members_firing: expect.any(Number),
        advisory: 'best track through 2022-09-28T18:00:00Z (27 fixes)',
        forecast: 'persistence',
        computed_at: HOUR,
      },
    ]);
  });

  it('rises as landfall nears: none 31 hours out, more an hour out than a day out, and certain once fired', () => {
    const p = (t: string) => lists.get(t)!.probability_to_trigger[0].probability as number;
    expect(p(FAR)).toBe(0);
    expect(p(DAY)).toBeGreaterThan(p(FAR));
    expect(p(HOUR)).toBeGreaterThan(p(DAY));
    expect(p(HOUR)).toBeGreaterThan(0.5);
    expect(lists.get(HOUR)!.state).not.toBe('triggered');
    expect(lists.get(AFTER)!.state).toBe('triggered');
    expect(p(AFTER)).toBe(1);
  });

  it('GET /triggers carries it as stored by the round (declared in openapi.yaml)', async () => {
    const store = await Store.open(dbs.get(HOUR)!);
    try {
      const ctx = {
        ...contextOn(store),
        clock: () => new Date(HOUR),
        config: defaultConfig({ dbPath: dbs.get(HOUR)! }),
      };
      const p = await platform(store, { ctx });
      const reply = await p.call('/api/v1/triggers', { token: p.adminToken });
      expect(reply.status).toBe(200);
      expect((reply.body as any).triggers[0].probability_to_trigger).toEqual(lists.get(HOUR)!.probability_to_trigger);
    } finally {
      await store.close();
    }
  });
});
