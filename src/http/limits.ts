/**
 * The HTTP platform's defaults (docs/contract.md#access and #errors), one commented line each. `catintel serve` flags
 * override them.
 */
import type { Tier } from '../handlers/types.js';

export const httpDefaults = {
  /** Requests per sliding minute (docs/contract.md#limits): free per client address, the others per credential. */
  requestsPerMinute: { free: 60, agency: 300, analyst: 600, enterprise: 3000 } satisfies Record<Tier, number>,
  rateWindowMs: 60_000,
  /** Request bodies (docs/contract.md#errors): JSON 1 MiB, CSV uploads 50 MiB. */
  maxJsonBytes: 1024 * 1024,
  maxCsvBytes: 50 * 1024 * 1024,
  /** A handler that runs longer is answered 503 (its work is told to stop through ctx.signal). */
  handlerTimeoutMs: 30_000,
  /** Node server: whole request headers within 10 s, the whole request within 60 s, idle keep-alive 5 s. */
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 5_000,
  /** SIGTERM: in-flight requests get this long to finish before connections are cut. */
  shutdownGraceMs: 10_000,
  /** Public GET responses are reused this long (ms). */
  cacheTtlMs: 2000,
} as const;

export type RequestsPerMinute = Record<Tier, number>;

/** `--rate-limit off|N`: off, or every limit multiplied by N (load tests only). */
export function scaledLimits(factor: number): RequestsPerMinute {
  const l = httpDefaults.requestsPerMinute;
  return {
    free: l.free * factor,
    agency: l.agency * factor,
    analyst: l.analyst * factor,
    enterprise: l.enterprise * factor,
  };
}
