/**
 * The local channel's wire format (src/channel/local-channel.ts serves it, src/channel/remote.ts speaks it): the
 * client writes one JSON line, a ChannelRequest; the server answers with NDJSON lines, any number of
 * { progress } and { log }, then exactly one { result } or { error }, and closes.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ProgressEvent } from '../context.js';
import { CatintelError, asCatintelError, type FieldProblem } from '../errors.js';
import type { RawInput } from '../handlers/types.js';

export interface ChannelRequest {
  token: string;
  handler: string;
  raw: RawInput;
  /** The CLI's --account (or CATINTEL_ACCOUNT); the CLI is the operator, so the tier is always enterprise. */
  account: string;
  /** The store path as the caller named it: answers that show it (`db info`) show it the same. */
  db: string;
  /** The caller's --as-of, if given (its CATINTEL_NOW travels in env). */
  as_of?: string;
  /** The caller's CATINTEL_* settings: the handler runs with them, as it would have in the caller's process. */
  env: Record<string, string>;
  /** --debug: the job's log lines come back too. */
  debug?: boolean;
}

export type ChannelMessage =
  | { progress: ProgressEvent }
  | { log: { level: string; message: string; fields?: Record<string, unknown> } }
  | { result: { body: unknown; notes?: string[] } }
  | { error: { code: string; message: string; errors?: FieldProblem[] } };

/** Reads and checks a request line; a wrong token is refused before anything else is looked at. */
export function parseRequest(line: string, token: string): ChannelRequest {
  let r: Partial<ChannelRequest>;
  try {
    r = JSON.parse(line) as Partial<ChannelRequest>;
  } catch {
    throw new CatintelError('invalid_request', 'the local channel takes one JSON line');
  }
  if (typeof r !== 'object' || r === null || typeof r.token !== 'string' || !sameSecret(r.token, token)) {
    throw new CatintelError(
      'unauthorized',
      "the local channel needs this server run's admin token (from <db>.serve.json)",
    );
  }
  const env = r.env && typeof r.env === 'object' ? r.env : {};
  if (
    typeof r.handler !== 'string' ||
    typeof r.account !== 'string' ||
    typeof r.db !== 'string' ||
    typeof r.raw !== 'object' ||
    r.raw === null ||
    Array.isArray(r.raw) ||
    (r.as_of !== undefined && typeof r.as_of !== 'string')
  ) {
    throw new CatintelError('invalid_request', 'a local channel request names handler, raw, account and db');
  }
  return {
    ...(r as ChannelRequest),
    env: Object.fromEntries(Object.entries(env).filter(([k, v]) => k.startsWith('CATINTEL_') && typeof v === 'string')),
  };
}

function sameSecret(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(a), digest(b));
}

/** The same code, message and field problems the standalone CLI would have printed; nothing of an unexpected error leaks. */
export function errorMessage(err: unknown): ChannelMessage {
  const e = asCatintelError(err);
  return { error: { code: e.code, message: e.message, ...(e.errors && { errors: e.errors }) } };
}
