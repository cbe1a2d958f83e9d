/**
 * The handler deadline (httpDefaults.handlerTimeoutMs): a handler still running after it is answered 503,
 * and its work is told to stop through ctx.signal.
 *
 * Most answers need neither a timer nor a signal: the live index answers /events/* before the handler's
 * promise is first awaited. So the signal is made only when the handler reads ctx.signal, and the timer
 * only when the handler is still pending one microtask after it was called (an AbortController, a timer,
 * a race and a spread copy of the context per request were a tenth of such a request's CPU). Nothing is
 * kept beyond the request: an earlier cheaper scheme (one timer over a Set of requests in flight) held
 * them until its tick, and V8 then ran full collections several times as often under load.
 */
import type { Context } from '../context.js';

const PENDING = Symbol('pending');
/** Already resolved: Promise.race([p, PENDING_CHECK]) gives p's outcome if p has settled, else PENDING. */
const PENDING_CHECK = Promise.resolve(PENDING);

export async function withDeadline<T>(
  base: Context,
  run: (ctx: Context) => Promise<T>,
  ms: number,
  timedOut: (ms: number) => Error,
): Promise<T> {
  const ctx = new RequestContext(base);
  const pending = run(ctx);
  // A settled promise's reaction is queued before the check's, so the race gives its outcome (or throws its error).
  const first = await Promise.race([pending, PENDING_CHECK]);
  if (first !== PENDING) return first as T;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      ctx.abort();
      reject(timedOut(ms));
    }, ms);
  });
  try {
    return await Promise.race([pending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The fields a request's context copies from the server's: all but `signal`. A field added to Context must
 * be added here too, or this fails to compile.
 */
const COPIED = { config: 0, db: 0, clock: 0, log: 0, progress: 0, liveIndex: 0 } satisfies Record<
  Exclude<keyof Context, 'signal'>,
  0
>;
void COPIED;

/**
 * The server's context with this request's signal, made on first read. A class, where a spread copy with a
 * getter cost over a microsecond a request. (A spread copy of it would lose the signal: none is made.)
 */
class RequestContext implements Context {
  readonly config: Context['config'];
  readonly db: Context['db'];
  readonly clock: Context['clock'];
  readonly log: Context['log'];
  readonly progress: Context['progress'];
  readonly liveIndex: Context['liveIndex'];
  private controller: AbortController | undefined = undefined;

  constructor(base: Context) {
    this.config = base.config;
    this.db = base.db;
    this.clock = base.clock;
    this.log = base.log;
    this.progress = base.progress;
    this.liveIndex = base.liveIndex;
  }

  get signal(): AbortSignal {
    return (this.controller ??= new AbortController()).signal;
  }

  abort(): void {
    this.controller?.abort();
  }
}
