/**
 * `trigger.probability` on the event stream (docs/stream.md): Ian's b-deck ingested into a store holding the
 * Fort Myers 100-kt trigger, at three fixes before landfall (31, 19 and 1 hours out) as `catintel serve`
 * would take them, each followed by the evaluation round and a refresh of the change feed. Each round that
 * changes the share of ensemble members in which the trigger fires pushes it to the trigger's account only,
 * with the members, the best track it came from and the previous probability; the number is the one
 * GET /triggers shows.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ingestSource } from '../src/ingest/run.js';
import { nhc } from '../src/sources/nhc.js';
import { Store } from '../src/store/db.js';
import type { Change } from '../src/stream/messages.js';
import { evaluateTriggers } from '../src/triggers/run.js';
import { cli, tempDir } from './helpers/cli.js';
import { FORT_MYERS_OPTIONS } from './helpers/fort-myers-trigger.js';
import { sharedData } from './helpers/paths.js';
import { replayedFeed } from './helpers/replayed-feed.js';

const BDECK = sharedData('hazard_history/hurricanes/bal092022.dat');
const TIMES = ['2022-09-27T12:00:00Z', '2022-09-28T00:00:00Z', '2022-09-28T18:00:00Z'];

describe('trigger.probability on /events/stream', () => {
  const got: Change[] = [];
  const listed: Record<string, any>[] = [];
  let trigger: string;
  let account: string;
  beforeAll(async () => {
    const dir = tempDir('catintel-probability-stream-');
    const dbPath = path.join(dir, 'store.duckdb');
    const created = await cli([
      '--db',
      dbPath,
      '--as-of',
      TIMES[0],
      '--json',
      'trigger',
      'create',
      ...FORT_MYERS_OPTIONS,
    ]);
    expect(created.code, created.stderr).toBe(0);
    trigger = created.json().id;
    const db = await Store.open(dbPath);
    account = (await db.all<{ account: string }>('SELECT account FROM triggers'))[0].account;
    const { ctx, feed, setClock, close } = await replayedFeed(db, { dbPath, at: TIMES[0], into: got });
    try {
      for (const at of TIMES) {
        setClock(at);
        await ingestSource(ctx, nhc, BDECK);
        await evaluateTriggers(ctx); // the round `catintel serve` runs after each ingest
        await feed.refresh(); // what `catintel serve` does after every store change
        listed.push(
          (
            await db.all<{ probability: number; advisory: string }>(
              'SELECT probability, advisory FROM trigger_fire_probability WHERE trigger_id = $t',
              { t: trigger },
            )
          )[0],
        );
      }
    } finally {
      await close();
    }
  }, 600_000);

  it('each round that changes the probability pushes it, with its members, best track and the previous value', () => {
    const ps = got.filter((c) => c.body.type === 'trigger.probability').map((c) => ({ ...c, body: c.body as any }));
    console.log(ps.map((p) => JSON.stringify(p.body)).join('\n'));
    // 31 hours out no member fires (probability 0, new: pushed); then it rises twice.
    expect(ps.map((p) => p.body.advisory)).toEqual([
      'best track through 2022-09-27T12:00:00Z (21 fixes)',
      'best track through 2022-09-28T00:00:00Z (23 fixes)',
      'best track through 2022-09-28T18:00:00Z (27 fixes)',
    ]);
    for (const [i, p] of ps.entries()) {
      expect(p.account).toBe(account); // the trigger's account's streams only
      expect(p.subject).toBeUndefined();
      expect(p.body).toMatchObject({
        trigger_id: trigger,
        name: 'Fort Myers 100 kt',
        source_id: 'al092022',
        members: 50,
        forecast: 'persistence',
        computed_at: TIMES[i],
        triggers_url: '/api/v1/triggers',
        source: 'nhc',
      });
      expect(p.body.members_firing).toBe(Math.round(p.body.probability * 50));
      // The number GET /triggers shows, as the round stored it.
      expect(p.body.probability).toBeCloseTo(Number(listed[i].probability), 6);
      expect(p.body.previous_probability).toBe(i === 0 ? null : ps[i - 1].body.probability);
    }
    expect(ps[0].body.probability).toBe(0);
    expect(ps[1].body.probability).toBeGreaterThan(0);
    expect(ps[2].body.probability).toBeGreaterThan(ps[1].body.probability);
  });
});
