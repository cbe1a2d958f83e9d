/**
 * One error class with a closed set of codes. The HTTP layer maps a code to a status and renders
 * RFC 9457 problem+json; the CLI maps it to an exit code and prints one line. Messages name the bad
 * value and the fix, and never carry stack traces, file paths or SQL.
 */
export type ErrorCode =
  | 'invalid_request'
  | 'invalid_parameter'
  | 'invalid_input' // a file or feed the CLI cannot read in the expected format
  | 'unauthorized'
  | 'insufficient_tier'
  | 'trigger_limit_reached'
  | 'not_found'
  | 'conflict' // an id that names more than one thing (a source id shared by two sources)
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'validation_failed'
  | 'rate_limited'
  | 'store_locked'
  | 'store_corrupt' // the store file fails DuckDB's checks (src/store/faults.ts): restore it, never retry
  | 'disk_full'
  | 'unavailable'
  | 'upstream_failed'
  | 'internal_error';

export interface FieldProblem {
  field: string;
  message: string;
}

export const httpStatusOf: Record<ErrorCode, number> = {
  invalid_request: 400,
  invalid_parameter: 400,
  invalid_input: 400,
  unauthorized: 401,
  insufficient_tier: 403,
  trigger_limit_reached: 403,
  not_found: 404,
  conflict: 409,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  rate_limited: 429,
  store_locked: 503,
  // A server fault no retry cures (500, not 503: 503 tells a client to come back).
  store_corrupt: 500,
  // Cured once the operator frees space: 503, the documented "come back later".
  disk_full: 503,
  unavailable: 503,
  upstream_failed: 502,
  internal_error: 500,
};

/**
 * docs/contract.md#errors: 0 ok, 1 runtime failure (a full disk included), 2 usage/bad input, 3 trigger breached, 4 store
 * locked, 5 store corrupt or unreadable (never reported as locked: cron must not retry it). An unknown
 * id is bad input (the caller named something that is not there), not a failure of the run: exit 2.
 */
export const exitCodeOf: Record<ErrorCode, number> = {
  invalid_request: 2,
  invalid_parameter: 2,
  invalid_input: 2,
  unauthorized: 2,
  insufficient_tier: 2,
  trigger_limit_reached: 1,
  not_found: 2,
  conflict: 2,
  method_not_allowed: 2,
  payload_too_large: 2,
  unsupported_media_type: 2,
  validation_failed: 2,
  rate_limited: 1,
  store_locked: 4,
  store_corrupt: 5,
  disk_full: 1,
  unavailable: 1,
  upstream_failed: 1,
  internal_error: 1,
};

export const titleOf: Record<ErrorCode, string> = {
  invalid_request: 'Invalid request',
  invalid_parameter: 'Invalid parameter',
  invalid_input: 'Unreadable input',
  unauthorized: 'Unauthorized',
  insufficient_tier: 'Insufficient tier',
  trigger_limit_reached: 'Trigger limit reached',
  not_found: 'Not found',
  conflict: 'Ambiguous id',
  method_not_allowed: 'Method not allowed',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  validation_failed: 'Validation failed',
  rate_limited: 'Too many requests',
  store_locked: 'Store locked',
  store_corrupt: 'Store corrupt',
  disk_full: 'Disk full',
  unavailable: 'Service unavailable',
  upstream_failed: 'Upstream feed failed',
  internal_error: 'Internal error',
};

export class CatintelError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldProblem[];
  /** Extra response headers the HTTP layer should send with this error (Allow, Retry-After, ...). */
  readonly headers?: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { errors?: FieldProblem[]; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'CatintelError';
    this.code = code;
    this.errors = opts.errors;
    this.headers = opts.headers;
  }

  get status(): number {
    return httpStatusOf[this.code];
  }
}

/**
 * Anything thrown that is not ours becomes an internal_error whose message reveals nothing; except a full
 * disk met by a write no one named (the store's own writes name their file, src/store/faults.ts).
 */
export function asCatintelError(err: unknown): CatintelError {
  if (err instanceof CatintelError) return err;
  if ((err as NodeJS.ErrnoException)?.code === 'ENOSPC') {
    const file = (err as NodeJS.ErrnoException).path;
    return new CatintelError(
      'disk_full',
      `no space left on device${file ? ` writing ${file}` : ''}; free space and re-run`,
      { cause: err },
    );
  }
  return new CatintelError('internal_error', 'An unexpected error occurred; the request was not completed.', {
    cause: err,
  });
}

export function invalidParameter(field: string, message: string): CatintelError {
  return new CatintelError('invalid_parameter', `${field}: ${message}`, { errors: [{ field, message }] });
}
