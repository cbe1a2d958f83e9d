/** The stream's bounds (docs/stream.md), like src/http/limits.ts for the rest of the API. */
export const streamDefaults = {
  /**
   * Changes kept for Last-Event-ID resume (about 1 KB each, so ~10 MB). A replayed week of the USGS feed
   * alone moves ~3000 events through new, monitoring and ended; 10 000 covers a client away for hours.
   */
  backlogSize: 10_000,
  /** A comment line this often keeps proxies and load balancers from closing an idle stream (most cut at 60 s). */
  heartbeatMs: 15_000,
  /** The live set is re-read this often even without a store change: the clock alone ends events. */
  tickMs: 60_000,
  /** What EventSource waits before reconnecting (the SSE `retry:` field). */
  retryMs: 3_000,
  /** Open streams per server; one more is answered 503 with Retry-After. */
  maxSubscribers: 1_000,
} as const;
