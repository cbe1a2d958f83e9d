/**
 * The handler time limit (handlerTimeoutMs), cheaper than an AbortController, a timeout promise and a
 * Promise.race per request: most handlers answer in microseconds, and those cost more than the answer. A
 * handler that passes its limit is answered 503 unavailable (Retry-After: 10) and told to stop through
 * ctx.signal, an AbortSignal made only when a handler reads it (aborted at once if read after the limit).
 * Each request keeps its own timer, cleared when it answers: one shared timer over a Set of requests in
 * flight was tried and made the collector run full collections several times as often under load.
 */
import { CatintelError } from '../errors.js';

export class Running {
  private controller: AbortController | undefined;
  private timedOut = false;
  private reject: ((err: unknown) => void) | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly owner: Deadlines,
    limitMs: number,
  ) {
    this.timer = setTimeout(() => this.expire(), limitMs);
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.timedOut) this.controller.abort();
    }
    return this.controller.signal;
  }

  /** The handler's context: `base` with this request's signal (a plain data property, made on first read). */
  context<C extends object>(base: C): C & { signal?: AbortSignal } {
    const running = this;
    return { ...base, signal: running.signal };
  }

  /** The handler's answer, or the 503 when the limit passes first; the handler is dropped either way once settled. */
  race<T>(run: () => Promise<T>): Promise<T> {
    let work: Promise<T>;
    try {
      work = run();
    } catch (err) {
      this.done();
      return Promise.reject(err);
    }
    return new Promise<T>((resolve, reject) => {
      this.reject = reject;
      work.then(
        (v) => {
          this.done();
          resolve(v);
        },
        (err) => {
          this.done();
          reject(err);
        },
      );
    });
  }

  private done(): void {
    if (this.timedOut) return;
    clearTimeout(this.timer);
    this.owner.running--;
  }

  /** The limit passed: stop the handler's work and answer 503. */
  private expire(): void {
    this.timedOut = true;
    this.owner.running--;
    this.controller?.abort();
    this.reject?.(new CatintelError('unavailable', `the request took longer than ${this.owner.limitMs / 1000} s and was stopped; narrow it or retry later`, { headers: { 'retry-after': '10' } }));
  }
}

export class Deadlines {
  /** Handlers in flight (tests). */
  running = 0;

  constructor(readonly limitMs: number) {}

  /** A handler starts now; call race() with its work. */
  start(): Running {
    this.running++;
    return new Running(this, this.limitMs);
  }

  get size(): number {
    return this.running;
  }
}
