/**
 * The event stream reads the stored probabilities to trigger now only after a store change that can move
 * them (docs/stream.md, "How changes are found"): an evaluation round, or a trigger created or deactivated.
 * Saved locations written over the API and the feed's own timer leave them as last read, and no message is
 * lost for it: the round still pushes `trigger.probability` to the trigger's account.
 *
 * The reads are counted by the store itself: DuckDB's query log (`enable_logging('QueryLog')`) lists every
 * statement any of its connections ran, so the count is what the database did, not what our code says it did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triggersEvaluate } from '../src/handlers/triggers-evaluate.js';
import { storeChangeOf } from '../src/handlers/store-change.js';
import { ingestSource } from '../src/ingest/run.js';
import { nhc } from '../src/sources/nhc.js';
import type { Store } from '../src/store/db.js';
import type { Change } from '../src/stream/messages.js';
import { CLOCK_ONLY } from '../src/stream/store-change.js';
import { evaluateTriggers } from '../src/triggers/run.js';
import { FORT_MYERS_TRIGGER } from './helpers/fort-myers-trigger.js';
import { sharedData } from './helpers/paths.js';
import { contextOn, platform, seededStore, token, tokenAccount, type Platform } from './http/helpers/harness.js';

let db: Store;
let p: Platform;
const got: Change[] = [];

beforeAll(async () => {
  db = await seededStore(); // the clock at 2022-09-29T03:32Z, Ian inland over Florida
  await ingestSource(contextOn(db), nhc, sharedData('hazard_history/hurricanes/bal092022.dat'));
  p = await platform(db, { rateLimit: 'off', stream: { tickMs: 0 } });
  await p.app.changes.start();
  p.app.changes.subscribe(
    (cs) => got.push(...cs),
    () => {},
  );
  await db.run("CALL enable_logging('QueryLog')");
}, 60_000);
afterAll(async () => {
  p?.app.changes.close();
  await p?.close();
});

/** The stream's reads of the stored probabilities so far (the count query itself excluded). */
async function probabilityReads(): Promise<number> {
  const [row] = await db.all<{ n: bigint }>(
    `SELECT count(*) AS n FROM duckdb_logs
      WHERE type = 'QueryLog' AND message LIKE '%FROM trigger_fire_probability p JOIN triggers%'
        AND message NOT LIKE '%duckdb_logs%'`,
  );
  return Number(row.n);
}

/** Waits until the refresh a write started (the API does not wait for it) has run, and one more after it. */
const settled = () => p.app.changes.refresh(CLOCK_ONLY);
const probabilityMessages = () => got.filter((c) => c.body.type === 'trigger.probability');

describe('the stream reads trigger probabilities only after a change that can move them', () => {
  it('a round, a trigger created or deactivated: read; saved locations and timer ticks: not read', async () => {
    const sub = 'probability-reads@example.com';
    const tok = await token('analyst', { sub });
    const reads0 = await probabilityReads();

    const created = await p.call('/api/v1/triggers', {
      token: tok,
      body: FORT_MYERS_TRIGGER,
    });
    expect(created.status).toBe(201);
    await settled();
    expect(await probabilityReads()).toBe(reads0 + 1); // the set of active triggers moved

    // `catintel serve --ingest-every`: the round after its ingest, then storeChanged() saying nothing more.
    await evaluateTriggers(contextOn(db));
    await p.app.storeChanged();
    expect(await probabilityReads()).toBe(reads0 + 2);
    const pushed = probabilityMessages();
    expect(pushed).toHaveLength(1);
    expect(pushed[0].account).toBe(tokenAccount(sub));
    expect(pushed[0].body).toMatchObject({ trigger_id: created.body.id, previous_probability: null });

    // Writes that cannot move them, and the feed's timer (its re-read of the live set: the clock ends events).
    for (let i = 0; i < 5; i++) {
      const saved = await p.call('/api/v1/locations', {
        token: tok,
        body: { name: `site ${i}`, lat: 28.5, lng: -81.4 },
      });
      expect(saved.status).toBe(201);
      await settled();
    }
    for (let i = 0; i < 5; i++) await p.app.changes.refresh(CLOCK_ONLY);
    expect(await probabilityReads()).toBe(reads0 + 2);

    // `catintel trigger evaluate` through the local channel: a round, read again (the same number: no message).
    await evaluateTriggers(contextOn(db));
    await p.app.storeChanged(storeChangeOf(triggersEvaluate));
    expect(await probabilityReads()).toBe(reads0 + 3);

    const gone = await p.call(`/api/v1/triggers/${created.body.id}`, { method: 'DELETE', token: tok });
    expect(gone.status).toBe(200);
    await settled();
    expect(await probabilityReads()).toBe(reads0 + 4);
    expect(probabilityMessages()).toHaveLength(1);
  }, 300_000);
});
