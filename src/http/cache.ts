/**
 * A short-lived cache of encoded GET responses for public routes. A live collection is the same bytes
 * for every caller until the store changes or the clock moves its statuses on, so the server answers
 * repeats without touching DuckDB. Entries die after ttlMs and whenever the store version is bumped
 * (the in-process ingest does so; the server holds the only write lock, so no other writer exists).
 */
import type { Encoded } from './respond.js';
import { ownBytes } from '../live-index/slabs.js';

export class ResponseCache {
  private entries = new Map<string, { at: number; version: number; value: Encoded }>();
  private version = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 500,
  ) {}

  /** A TTL of 0 turns the cache off: no key need be made for it. */
  get enabled(): boolean {
    return this.ttlMs > 0;
  }

  get(key: string, nowMs: number): Encoded | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.version !== this.version || nowMs - e.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: string, value: Encoded, nowMs: number): void {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    // A body the live index cut from a shared slab is copied out (same bytes): a kept entry must not hold the slab.
    value.body = ownBytes(value.body);
    this.entries.set(key, { at: nowMs, version: this.version, value });
  }

  /** The store changed: every cached body may be stale. */
  invalidate(): void {
    this.version++;
    this.entries.clear();
  }
}
