/** `catintel db info`: where the store is, its schema version, and what it holds. */
import { defineHandler } from './types.js';

export const dbInfo = defineHandler({
  name: 'db.info',
  summary: 'Show the store file, schema version, counts and the latest ingest runs',
  cli: { command: ['db', 'info'], examples: ['catintel db info', 'catintel --db seed.duckdb db info --json'] },
  parse: () => ({}),
  async run(ctx) {
    const now = ctx.clock().toISOString();
    const count = async (sql: string, params?: Record<string, string>) =>
      Number((await ctx.db.one<{ n: bigint }>(sql, params))?.n ?? 0);
    const byType = await ctx.db.all<{ event_type: string; n: bigint }>(
      'SELECT event_type, count(*) AS n FROM events GROUP BY 1 ORDER BY 1',
    );
    const runs = await ctx.db.all(
      `SELECT source, url, status, strftime(started_at, '%Y-%m-%dT%H:%M:%SZ') AS started_at, inserted, updated, unchanged, skipped
         FROM ingest_runs ORDER BY started_at DESC LIMIT 10`,
    );
    return {
      body: {
        path: ctx.db.path,
        schema_version: await ctx.db.schemaVersion(),
        events: await count('SELECT count(*) AS n FROM events'),
        live_events: await count(
          'SELECT count(*) AS n FROM events WHERE (ended_at IS NULL OR ended_at > $now::TIMESTAMP)',
          { now },
        ),
        events_by_type: Object.fromEntries(byType.map((r) => [r.event_type, Number(r.n)])),
        rings: await count('SELECT count(*) AS n FROM rings'),
        observations: await count('SELECT count(*) AS n FROM observations'),
        recent_ingest_runs: runs,
      },
    };
  },
});
