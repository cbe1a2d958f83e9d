import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from './db.js';
import { DUCKDB_THREADS_ENV, threadSettings } from './duckdb-threads.js';

const threadsOf = async () => {
  const store = await Store.open(':memory:');
  try {
    return Number((await store.one<{ t: bigint }>("SELECT current_setting('threads') AS t"))!.t);
  } finally {
    await store.close();
  }
};

describe('CATINTEL_DUCKDB_THREADS', () => {
  const before = process.env[DUCKDB_THREADS_ENV];
  afterEach(() => {
    if (before === undefined) delete process.env[DUCKDB_THREADS_ENV];
    else process.env[DUCKDB_THREADS_ENV] = before;
  });

  it("sets the store's DuckDB threads; unset, DuckDB uses every core it sees", async () => {
    process.env[DUCKDB_THREADS_ENV] = '1';
    expect(await threadsOf()).toBe(1);
    process.env[DUCKDB_THREADS_ENV] = '3';
    expect(await threadsOf()).toBe(3);
    delete process.env[DUCKDB_THREADS_ENV];
    expect(await threadsOf()).toBe(os.availableParallelism());
  });

  it('refuses what is not a whole number of threads, naming the value and the fix', async () => {
    for (const bad of ['0', 'two', '-1', '1.5', '99999']) {
      expect(() => threadSettings({ [DUCKDB_THREADS_ENV]: bad })).toThrow(
        `${DUCKDB_THREADS_ENV}=${bad}: give a whole number of threads from 1`,
      );
      process.env[DUCKDB_THREADS_ENV] = bad;
      await expect(Store.open(':memory:')).rejects.toMatchObject({ code: 'invalid_parameter' });
    }
    expect(threadSettings({})).toEqual({});
    expect(threadSettings({ [DUCKDB_THREADS_ENV]: '' })).toEqual({});
  });
});
