/**
 * GET /api/v1/health (for load balancers: the store answers, the clock, the version) and
 * GET /api/v1/health/sources (per feed: last success, lag, records, last error, next scheduled run).
 * Both free. /healthz stays the bare liveness probe that also turns 503 while the server drains.
 */
import { SOURCE_IDS } from '../domain/event.js';
import { ingestSchedule } from '../ingest/schedule.js';
import { packageVersion } from '../lib/package-version.js';
import { sourceRunHealth } from '../store/ingest-runs.js';
import { defineHandler, type HandlerResult } from './types.js';

interface HealthBody {
  status: 'ok' | 'unavailable';
  version: string;
  clock: string;
  store: { status: 'open' | 'unavailable'; schema_version?: number };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export const health = defineHandler({
  name: 'health',
  summary: 'Is the service up: the store answers, its clock, the version',
  // perAccount: never from the shared response cache (a probe must see the store as it is now).
  http: { method: 'GET', path: '/health', access: 'free', perAccount: true },
  parse: () => ({}),
  async run(ctx): Promise<HandlerResult<HealthBody>> {
    const clock = ctx.clock().toISOString();
    const version = packageVersion();
    try {
      const schemaVersion = await ctx.db.schemaVersion();
      return {
        body: { status: 'ok', version, clock, store: { status: 'open', schema_version: schemaVersion } },
        headers: { 'cache-control': 'no-store' },
      };
    } catch {
      // A store that cannot answer a one-row query cannot serve anything: take this instance out of rotation.
      return {
        status: 503,
        body: { status: 'unavailable', version, clock, store: { status: 'unavailable' } },
        headers: { 'cache-control': 'no-store' },
      };
    }
  },
});

export const healthSources = defineHandler({
  name: 'health.sources',
  summary: 'Per source: last success, lag, record count, last error, next scheduled run',
  http: { method: 'GET', path: '/health/sources', access: 'free', perAccount: true },
  parse: () => ({}),
  async run(ctx) {
    const now = ctx.clock();
    const rows = new Map((await sourceRunHealth(ctx.db, now.toISOString())).map((r) => [r.source, r]));
    const schedule = ingestSchedule();
    const sources = SOURCE_IDS.map((source) => {
      const r = rows.get(source);
      const lastSuccess = r?.last_success_ms ?? null;
      // The newest attempt failed: the source is failing now, and its last good data is what serves.
      const failing = r?.last_status === 'failed';
      return {
        source,
        status: !r ? 'never_run' : failing ? 'failing' : 'ok',
        last_success_at: iso(lastSuccess),
        lag_seconds: lastSuccess === null ? null : Math.max(0, Math.round((now.getTime() - lastSuccess) / 1000)),
        records: r?.records ?? null,
        last_run_at: iso(r?.last_run_ms ?? null),
        last_run_status: r?.last_status ?? null,
        last_error: r?.last_error ? { at: iso(r.last_error_ms), message: r.last_error } : null,
        failures_since_success: r?.failures_since_success ?? 0,
        next_run_at: schedule ? new Date(schedule.nextRunMs).toISOString() : null,
      };
    });
    const status = sources.some((s) => s.status === 'failing') ? 'degraded' : 'ok';
    return {
      body: { status, clock: now.toISOString(), ingest_every_seconds: schedule?.everySeconds ?? null, sources },
      headers: { 'cache-control': 'no-store' },
    };
  },
});
