/**
 * Sliding-window rate limits (docs/contract.md#limits), exact: each key keeps the times of the requests it was
 * allowed in the last window (a ring buffer of `limit` slots), so "60 per minute" means no 61st request
 * in ANY 60 s span, not per calendar minute and not an estimate. A check-and-record is synchronous, and
 * Node runs one request's JS at a time, so concurrent requests can never both take the last slot.
 * Refused requests are not recorded: a client that keeps retrying does not push its own reset away.
 *
 * Time is the process's monotonic clock, never CATINTEL_NOW (which pins the event clock for replays).
 */
import { performance } from 'node:perf_hooks';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted request leaves the window and frees a slot (0 if none is counted). */
  resetSeconds: number;
}

/** Times of the requests counted in the window, oldest first: a ring buffer that grows up to `limit`. */
class RequestLog {
  times: Float64Array;
  head = 0; // index of the oldest entry
  count = 0;
  constructor(readonly limit: number) {
    // Most clients never come near a large limit: start small, double when full.
    this.times = new Float64Array(Math.min(limit, 64));
  }
  evictBefore(cutoff: number): void {
    while (this.count > 0 && this.times[this.head] <= cutoff) {
      this.head = (this.head + 1) % this.times.length;
      this.count--;
    }
  }
  push(t: number): void {
    if (this.count === this.times.length) {
      const grown = new Float64Array(Math.min(this.limit, this.times.length * 2));
      for (let i = 0; i < this.count; i++) grown[i] = this.times[(this.head + i) % this.times.length];
      this.times = grown;
      this.head = 0;
    }
    this.times[(this.head + this.count) % this.times.length] = t;
    this.count++;
  }
  oldest(): number {
    return this.times[this.head];
  }
  newest(): number {
    return this.times[(this.head + this.count - 1) % this.times.length];
  }
}

/**
 * The decision reported when limiting is off (`serve --rate-limit off`, load tests only): every response
 * still carries the X-RateLimit-* headers the contract promises, stating the caller's contract limit with
 * nothing counted against it (remaining = limit, reset 0), which is what a client may in fact still send.
 */
export function unmetered(limit: number): RateDecision {
  return { allowed: true, limit, remaining: limit, resetSeconds: 0 };
}

/**
 * What the HTTP pipeline asks: this process's SlidingWindowLimiter, or on a cluster store the window every
 * replica shares in PostgreSQL (src/store/cluster/shared-rate-window.ts), which answers asynchronously.
 */
export interface RateLimiter {
  hit(key: string, limit: number): RateDecision | Promise<RateDecision>;
}

export class SlidingWindowLimiter implements RateLimiter {
  private logs = new Map<string, RequestLog>();
  private hits = 0;

  constructor(
    readonly windowMs = 60_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts one request for `key` if the window has room. */
  hit(key: string, limit: number): RateDecision {
    const t = this.now();
    if (++this.hits % 4096 === 0) this.sweep(t);
    let log = this.logs.get(key);
    if (!log || log.limit !== limit) {
      log = new RequestLog(limit);
      this.logs.set(key, log);
    }
    log.evictBefore(t - this.windowMs);
    const allowed = log.count < limit;
    if (allowed) log.push(t);
    // Clamped to the window: with fractional monotonic times, (oldest + window - t) can come out a hair
    // above the window itself, and ceil() would then say 61 s for a 60 s window.
    const windowSeconds = Math.ceil(this.windowMs / 1000);
    const resetSeconds =
      log.count === 0 ? 0 : Math.min(windowSeconds, Math.max(1, Math.ceil((log.oldest() + this.windowMs - t) / 1000)));
    return { allowed, limit, remaining: limit - log.count, resetSeconds };
  }

  /** Forgets keys with nothing in their window, so memory follows the active clients only. */
  sweep(t = this.now()): void {
    for (const [key, log] of this.logs) {
      if (log.count === 0 || log.newest() <= t - this.windowMs) this.logs.delete(key);
    }
  }

  get size(): number {
    return this.logs.size;
  }
}
