/**
 * Issue 27 item 9: readers do not wait for writers. A write that `catintel serve` runs for a CLI (an
 * ingest through the local channel) holds its transaction for as long as it needs; requests arriving
 * meanwhile are answered from the state before it, and the ones after it see all of it. Timing is never
 * asserted: a read that is answered while the write is still open is the behaviour (before, it queued
 * behind the write on the store's one connection).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.js';
import { appOn, weekStore, WEEK_NOW } from './helpers/store.js';

/** Long enough that a read queued behind the write could not be mistaken for one answered beside it. */
const HOLD_MS = 5_000;

describe('readers beside a writer', () => {
  let served: Awaited<ReturnType<typeof appOn>>;
  let key: string;
  beforeAll(async () => {
    const db = await weekStore();
    const made = await cli(['--db', db, '--json', 'keys', 'create', '--tier', 'analyst', '--name', 'reader']);
    if (made.code !== 0) throw new Error(made.stderr);
    key = JSON.parse(made.stdout).key;
    // The response cache off: every request reads the store.
    served = await appOn(db, WEEK_NOW, { cacheTtlMs: 0 });
  });
  afterAll(() => served.close());

  const matched = async (url: string) => {
    const res = await served.get(url);
    expect(res.status).toBe(200);
    return (await res.json()).numberMatched as number;
  };

  it('a read is answered while a write transaction is open, with the state before it; the next read sees the write', async () => {
    const url = '/api/v1/events/live?event_type=earthquake&limit=1';
    const before = await matched(url);
    expect(before).toBeGreaterThan(10);
    const order: string[] = [];
    let during: number | undefined;
    await served.db.transaction(async (tx) => {
      // Half of a write: the live earthquakes ended, not yet committed.
      await tx.run("UPDATE events SET ended_at = '2020-07-01T00:00:00'::TIMESTAMP WHERE event_type = 'earthquake'");
      const read = matched(url).then((n) => {
        during = n;
        order.push('read answered');
      });
      // The write stays open until the read is answered (or, if reads wait for writes, until HOLD_MS is up).
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([read, new Promise((r) => (timer = setTimeout(r, HOLD_MS)))]);
      clearTimeout(timer);
      order.push('write committed');
      // The read is not awaited here when it waits for us: that would never end.
      void read;
    });
    await expect.poll(() => order.length).toBe(2);
    expect(order).toEqual(['read answered', 'write committed']);
    expect(during).toBe(before); // nothing of the open write
    expect(await matched(url)).toBe(0); // all of it once committed
  });

  it('a score with an API key not seen before (read from the store) is answered while a write transaction is open', async () => {
    const order: string[] = [];
    await served.db.transaction(async (tx) => {
      await tx.run("DELETE FROM ingest_runs WHERE source = 'none'");
      const read = served
        .get('/api/v1/risk/score?lat=34.05&lng=-118.25', { authorization: `Bearer ${key}` })
        .then((res) => order.push(`score ${res.status}`));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([read, new Promise((r) => (timer = setTimeout(r, HOLD_MS)))]);
      clearTimeout(timer);
      order.push('write committed');
    });
    await expect.poll(() => order.length).toBe(2);
    expect(order).toEqual(['score 200', 'write committed']);
  });
});
