/**
 * The handler time limit (handlerTimeoutMs) with one timer for all requests in flight, instead of a timer,
 * an AbortController and a Promise.race per request: most handlers answer in microseconds, and those three
 * cost more than the answer. Every request has the same limit, so deadlines come in the order requests
 * start: they wait in a Set (insertion order, O(1) removal) and one timer is armed for the oldest. A handler
 * that passes its limit is answered 503 unavailable (Retry-After: 10) and told to stop through ctx.signal,
 * an AbortSignal made only when a handler reads it (aborted at once if read after the limit).
 */
import { performance } from 'node:perf_hooks';
import { CatintelError } from '../errors.js';

export class Running {
  private controller: AbortController | undefined;
  private timedOut = false;
  private reject: ((err: unknown) => void) | undefined;

  constructor(
    private readonly owner: Deadlines,
    readonly deadline: number,
  ) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.timedOut) this.controller.abort();
    }
    return this.controller.signal;
  }

  /** The handler's answer, or the 503 when the limit passes first; the handler is dropped either way once settled. */
  race<T>(run: () => Promise<T>): Promise<T> {
    let work: Promise<T>;
    try {
      work = run();
    } catch (err) {
      this.owner.done(this);
      return Promise.reject(err);
    }
    return new Promise<T>((resolve, reject) => {
      this.reject = reject;
      work.then(
        (v) => {
          this.owner.done(this);
          resolve(v);
        },
        (err) => {
          this.owner.done(this);
          reject(err);
        },
      );
    });
  }

  /** The limit passed: stop the handler's work and answer 503. */
  expire(limitMs: number): void {
    this.timedOut = true;
    this.controller?.abort();
    this.reject?.(new CatintelError('unavailable', `the request took longer than ${limitMs / 1000} s and was stopped; narrow it or retry later`, { headers: { 'retry-after': '10' } }));
  }
}

export class Deadlines {
  private readonly pending = new Set<Running>();
  private timer: NodeJS.Timeout | undefined;

  constructor(readonly limitMs: number) {}

  /** A handler starts now; call race() with its work. */
  start(): Running {
    const r = new Running(this, performance.now() + this.limitMs);
    this.pending.add(r);
    if (this.timer === undefined) this.arm(r.deadline);
    return r;
  }

  done(r: Running): void {
    this.pending.delete(r);
  }

  /** Requests in flight (tests). */
  get size(): number {
    return this.pending.size;
  }

  private arm(at: number): void {
    // Unref'd: a server's sockets keep the process alive, and an idle app must not for up to the limit.
    this.timer = setTimeout(() => this.fire(), Math.max(0, at - performance.now()) + 1);
    this.timer.unref();
  }

  private fire(): void {
    this.timer = undefined;
    const now = performance.now();
    for (const r of this.pending) {
      if (r.deadline > now) return this.arm(r.deadline);
      this.pending.delete(r);
      r.expire(this.limitMs);
    }
  }
}
