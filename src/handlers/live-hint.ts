/** The hint `catintel events live` and `trigger evaluate` print when no event is live (a person's next step; never in the body). */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from '../context.js';
import { listEvents } from '../store/events-read.js';
import { defaultSeedDir } from './db-seed.js';

const LIVE_STATUSES = ['active', 'monitoring'] as const;

/**
 * Why `events live` is empty (or `trigger evaluate` has nothing to read), for a person: an empty store, or a store whose events are all over at
 * "now" (typically the embedded snapshot, live only at its own instant, read at today's date).
 * Nothing when other live events exist and the filters excluded them.
 */
export async function whyNoneLive(ctx: Context, now: string, command = 'events live'): Promise<string[] | undefined> {
  const live = await listEvents(ctx.db, { now, statuses: [...LIVE_STATUSES] }, { limit: 1 });
  if (live.matched > 0) return undefined;
  const held = await ctx.db.one<{ n: bigint; latest: string | null }>(
    // The latest update, rounded up to the second: at that instant every stored event has been seen.
    `SELECT count(*) AS n, strftime(date_trunc('second', max(updated_at) + INTERVAL 999999 MICROSECOND), '%Y-%m-%dT%H:%M:%SZ') AS latest FROM events`,
  );
  const n = Number(held?.n ?? 0);
  if (n === 0 || !held?.latest) {
    return [
      'The store holds no events: load the embedded snapshot with `catintel db seed` (offline) or the live feeds with `catintel ingest`.',
    ];
  }
  const instant = snapshotInstantNear(held.latest) ?? held.latest;
  return [
    `The store holds ${n} events, but none is live at ${now.replace(/\.\d{3}Z$/, 'Z')}; its latest update is ${held.latest}.`,
    `See them as of ${instant === held.latest ? 'then' : `the snapshot instant ${instant}`}: catintel --as-of ${instant} ${command}   (or CATINTEL_NOW=${instant})`,
  ];
}

/** The embedded snapshot's instant (data/seed/as-of.txt) when the store's latest update is from it (within a day before). */
function snapshotInstantNear(latest: string): string | undefined {
  let asOf: string;
  try {
    asOf = fs.readFileSync(path.join(defaultSeedDir(), 'as-of.txt'), 'utf8').trim();
  } catch {
    return undefined;
  }
  const gapMs = Date.parse(asOf) - Date.parse(latest);
  return gapMs >= 0 && gapMs < 86_400_000 ? asOf : undefined;
}
