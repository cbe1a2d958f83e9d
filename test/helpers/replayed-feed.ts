/**
 * A store's change feed as `catintel serve` runs it (src/stream/feed.ts), on a clock the test moves: the
 * stream tests replay ingests at chosen instants, refresh the feed after each as the server's storeChanged()
 * hook does, and read what it published. No timer (tickMs 0): the test says when the feed re-reads.
 */
import { defaultConfig } from '../../src/config/defaults.js';
import type { Context } from '../../src/context.js';
import type { Store } from '../../src/store/db.js';
import { ChangeFeed } from '../../src/stream/feed.js';
import type { Change } from '../../src/stream/messages.js';

export interface ReplayedFeed {
  /** The store's context, its clock at the instant last set. */
  ctx: Context;
  feed: ChangeFeed;
  /** Moves the clock: what the next ingest and refresh see as now. */
  setClock(at: string): void;
  /** Stops the feed and closes the store. */
  close(): Promise<void>;
}

/** Starts the feed on `db` (the store file at `dbPath`) at `at`; every change it publishes is pushed to `into`. */
export async function replayedFeed(
  db: Store,
  o: { dbPath: string; at: string; env?: Record<string, string>; into: Change[] },
): Promise<ReplayedFeed> {
  let clock = o.at;
  const ctx: Context = {
    config: defaultConfig({ dbPath: o.dbPath, ...(o.env && { env: o.env }) }),
    db,
    clock: () => new Date(clock),
    log: () => {},
    progress: () => {},
  };
  const feed = new ChangeFeed(ctx, { tickMs: 0 });
  await feed.start();
  feed.subscribe(
    (cs) => o.into.push(...cs),
    () => {},
  );
  return {
    ctx,
    feed,
    setClock: (at) => {
      clock = at;
    },
    close: async () => {
      feed.close();
      await db.close();
    },
  };
}
