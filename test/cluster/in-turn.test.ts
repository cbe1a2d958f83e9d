/**
 * A check-then-write across the processes of a cluster store (an account's active triggers counted, then one
 * added): each replica's transaction is its own PostgreSQL transaction, which does not see the other's
 * uncommitted insert, so two can both take the last slot. Store.inTurn makes them take turns. Two stores
 * opened on one address stand for two replicas here: each has its own DuckDB and its own PostgreSQL sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/store/db.js';
import { startPostgres, type ThrowawayPostgres } from '../helpers/throwaway-postgres.js';

let pg: ThrowawayPostgres;
let replicas: Store[] = [];
beforeAll(async () => {
  pg = await startPostgres();
  const address = await pg.storeAddress('turns');
  replicas = [await Store.open(address), await Store.open(address)];
  await replicas[0].run('CREATE TABLE pg.public.slots (holder VARCHAR)');
}, 120_000);
afterAll(async () => {
  await Promise.all(replicas.map((r) => r.close()));
  await pg?.stop();
});

/** Counts the slots taken, waits a moment (another replica's request arrives), and takes one if none is. */
const takeLastSlot = (db: Store, holder: string) =>
  db.transaction(async (tx) => {
    const [{ n }] = await tx.all<{ n: bigint }>('SELECT count(*) AS n FROM pg.public.slots');
    await new Promise((r) => setTimeout(r, 500));
    if (Number(n) === 0) await tx.run('INSERT INTO pg.public.slots VALUES ($1)', [holder]);
  });

const taken = async () => (await replicas[0].all('SELECT holder FROM pg.public.slots')).length;

describe('Store.inTurn on a cluster store', () => {
  it('without it, two replicas both take the last slot (the race it is for)', async () => {
    await Promise.all([takeLastSlot(replicas[0], 'a'), takeLastSlot(replicas[1], 'b')]);
    expect(await taken()).toBe(2);
    await replicas[0].run('DELETE FROM pg.public.slots');
  });

  it('with it, they take turns: one takes the slot, the other sees it taken', async () => {
    await Promise.all(replicas.map((db, i) => db.inTurn('the last slot', () => takeLastSlot(db, String(i)))));
    expect(await taken()).toBe(1);
  });
});
