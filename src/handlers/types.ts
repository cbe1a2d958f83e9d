/**
 * The handler contract (docs/architecture.md#one-handler-layer-two-thin-adapters). A handler validates a raw
 * object (CLI options+args, or HTTP path params+query+body) into a typed input and runs the use case.
 * It never prints and never touches a response object; the registry drives both adapters.
 */
import type { Context } from '../context.js';

// Part of the handler contract; defined below every layer so auth, the store and capabilities can name them.
export { TIERS, tierAtLeast, type Tier, type Caller } from '../caller.js';
import type { Caller, Tier } from '../caller.js';
import type { EventColumns } from '../domain/event-columns.js';

/**
 * Raw input, all strings as they arrived: CLI option values (camelCase keys converted to the
 * snake_case names the HTTP API uses) and positional args, or HTTP path params and query values.
 * A JSON body, when there is one, sits under `body`.
 */
export type RawInput = Record<string, unknown>;

export type MediaType =
  'application/json' | 'application/geo+json' | 'application/pdf' | 'text/csv' | 'application/problem+json';

export interface HandlerResult<O = unknown> {
  body: O;
  mediaType?: MediaType; // default application/json
  status?: number; // default 200
  headers?: Record<string, string>;
  /** The body's strong ETag when the handler knows it without hashing the bytes (the live index, src/live-index/render.ts). */
  etag?: string;
  /** The sources of the events in the body, when the handler knows them (X-Data-Freshness, src/http/freshness.ts). */
  sources?: string[];
  /** The answer as columns, when the handler has them without its body (the live index): its Arrow form is made from them (src/columnar/answer-table.ts). */
  columns?: () => EventColumns;
  /** Hints for a person (what to try when a list is empty): the CLI prints them under its text output; never in the body. */
  notes?: string[];
}

export interface CliOption {
  /** commander flags, e.g. '--radius-km <km>'. The value reaches parse() under the snake_case name. */
  flags: string;
  description: string;
}

/**
 * Where a handler sits in the HTTP API. The HTTP layer enforces everything declared here before the
 * handler runs (src/http/pipeline.ts): the registry is the one route and access table, so a new
 * endpoint is protected the moment it is registered.
 */
export interface HttpBinding {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  /** The lowest tier that may call it (docs/contract.md#access). */
  access: Tier;
  /** Query values that raise the access level, e.g. { format: { oasis: 'enterprise' } } (docs/contract.md#access). */
  accessByQuery?: Record<string, Record<string, Tier>>;
  /** Operator only: needs the server's admin token (key management). */
  admin?: boolean;
  /** In the contract, not built yet: answers 501 not_implemented after the access checks. */
  planned?: boolean;
  /** POST body media types accepted (default application/json); others get 415. */
  accepts?: ('application/json' | 'text/csv')[];
  /** The answer depends on the caller's account (saved locations...): never served from the shared cache. */
  perAccount?: boolean;
  /**
   * A long-lived text/event-stream answer (GET /events/stream): the pipeline hands the parsed input to the
   * app's stream (src/stream/sse.ts) instead of run(), with no response cache, ETag or compression.
   */
  stream?: boolean;
}

// The registry holds handlers of every input and output type in one list, and a handler's parse result flows back
// into its own run (both variances): `any` defaults are what let Handler<X, Y> sit in Handler[].
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Handler<I = any, O = any> {
  name: string; // 'events.live'
  summary: string;
  /** HTTP binding under /api/v1; the path uses {param} placeholders as in the OpenAPI document. */
  http?: HttpBinding;
  /** CLI binding: `catintel <command...> <args...> [options]`. */
  cli?: {
    command: string[];
    args?: string[];
    options?: CliOption[];
    examples: string[];
    /**
     * Raw keys (options or args) whose values are files or directories on the caller's machine. When the
     * CLI hands the command to a running server (src/channel/remote.ts), these are resolved against the
     * caller's working directory first, since the server has its own; URLs are left alone.
     */
    paths?: string[];
    /**
     * The answer is a page of events that `--format arrow|geoparquet --out FILE` writes as a file instead of
     * printing it (src/columnar/event-file.ts); the handler itself never sees those two options.
     */
    eventFile?: boolean;
    /**
     * The answer is a table that `--format arrow --out FILE` writes as an Arrow IPC file instead of printing
     * it (src/columnar/table-file.ts); the handler itself never sees those two options.
     */
    tableFile?: boolean;
    /** The process exit code for a successful answer (default 0): `trigger evaluate --fail-on-breach` exits 3, `trigger verify` 1 on a mismatch (docs/contract.md#cli-exit-codes). */
    exitCode?(body: O, input: I): number;
  };
  /** Opens the store read-write (ingest, create). Read-only handlers can run beside another reader. */
  writes?: boolean;
  /**
   * A writing handler that never changes events, their observations or rings (keys, triggers, portfolios,
   * saved locations): after it, `catintel serve` does not rebuild its live-event index.
   */
  keepsEvents?: boolean;
  /**
   * Runs a trigger evaluation round (src/triggers/run.ts), which replaces the stored probabilities to trigger
   * now: after it, the event stream re-reads them (src/stream/store-change.ts). A writer without it is taken
   * not to move them, so a new handler that runs a round must say so here.
   */
  evaluatesTriggers?: boolean;
  /** Needs no store at all (`token issue`, bulk `score`): the CLI never opens or locks one for it, so it runs beside a server. */
  storeless?: boolean;
  parse(raw: RawInput, caller: Caller): I;
  run(ctx: Context, input: I, caller: Caller): Promise<HandlerResult<O>>;
}

export function defineHandler<I, O>(h: Handler<I, O>): Handler<I, O> {
  return h;
}
