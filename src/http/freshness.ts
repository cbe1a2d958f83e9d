/**
 * X-Data-Freshness on every events response: the age in whole seconds, by the clock, of the newest
 * successful ingest (ok or not_modified) of the sources the answer draws on — the sources of the
 * events in the body, or every source when the body names none (an empty list, rings). Absent when
 * none of those sources has ever been ingested into this store. The per-source times are read at most
 * once a second (FRESHNESS_TTL_MS), so a busy server pays one small query a second, not one a request.
 */
import type { Context } from '../context.js';
import { newestSuccessBySource } from '../store/ingest-runs.js';
import type { Encoded } from './respond.js';

/** The handlers whose answers are events (the contract's /events/* and the OGC items of the same events). */
export const EVENT_HANDLERS = new Set([
  'events.live',
  'events.show',
  'events.rings',
  'events.nearby',
  'ogc.items',
  'ogc.item',
]);

const FRESHNESS_TTL_MS = 1000;

export class Freshness {
  private newest: { map: Map<string, number>; readAtMs: number } | null = null;
  private loading: Promise<Map<string, number>> | null = null;
  /** Bumped by invalidate(): a read begun before the store changed does not become the fresh one. */
  private generation = 0;
  constructor(private readonly ctx: Pick<Context, 'db' | 'clock'>) {}

  /** The header's value; synchronous while the per-source times are fresh (no await on the hot path). */
  header(encoded: Encoded, body: unknown, nowMs = Date.now()): string | undefined | Promise<string | undefined> {
    // Found once per body (a cached response keeps them), unless the handler named them.
    const known = (encoded.sources ??= sourcesOf(body));
    if (this.newest && nowMs - this.newest.readAtMs < FRESHNESS_TTL_MS) return this.age(this.newest.map, known);
    return this.map(nowMs).then((map) => this.age(map, known));
  }

  private age(map: Map<string, number>, sources: string[]): string | undefined {
    let newest = -Infinity;
    for (const [source, ms] of map) if ((sources.length === 0 || sources.includes(source)) && ms > newest) newest = ms;
    if (newest === -Infinity) return undefined;
    return String(Math.max(0, Math.floor((this.ctx.clock().getTime() - newest) / 1000)));
  }

  /** The store changed (an ingest): the next answer reads the per-source times again. */
  invalidate(): void {
    this.generation++;
    this.newest = null;
    this.loading = null;
  }

  private async map(nowMs: number): Promise<Map<string, number>> {
    if (this.newest && nowMs - this.newest.readAtMs < FRESHNESS_TTL_MS) return this.newest.map;
    const generation = this.generation;
    const loading = (this.loading ??= newestSuccessBySource(this.ctx.db, this.ctx.clock().toISOString())
      .then((map) => {
        if (generation === this.generation) this.newest = { map, readAtMs: nowMs };
        return map;
      })
      .finally(() => {
        if (this.loading === loading) this.loading = null;
      }));
    return loading;
  }
}

/** `properties.source` of a Feature or of a FeatureCollection's features (bytes: none known). */
export function sourcesOf(body: unknown): string[] {
  if (Buffer.isBuffer(body)) return [];
  const b = body as {
    type?: string;
    properties?: { source?: unknown };
    features?: { properties?: { source?: unknown } }[];
  } | null;
  const out = new Set<string>();
  const add = (v: unknown) => typeof v === 'string' && out.add(v);
  if (b?.type === 'Feature') add(b.properties?.source);
  if (Array.isArray(b?.features)) for (const f of b.features) add(f?.properties?.source);
  return [...out];
}
