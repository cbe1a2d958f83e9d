/**
 * The handler time limit (src/http/deadlines.ts): one timer for every handler in flight. A handler past its
 * limit is answered 503 and its signal aborted (also when read only afterwards); handlers that answer in
 * time are untouched, whatever order they finish in, and leave nothing pending.
 */
import { describe, expect, it } from 'vitest';
import { Deadlines } from '../src/http/deadlines.js';
import { CatintelError } from '../src/errors.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('handler deadlines', () => {
  it('answers in time, in any order, and forgets finished handlers', async () => {
    const d = new Deadlines(200);
    const a = d.start();
    const b = d.start();
    const slow = a.race(async () => (await sleep(30), 'a'));
    const fast = b.race(async () => 'b');
    expect(d.size).toBe(2);
    expect(await fast).toBe('b');
    expect(await slow).toBe('a');
    expect(d.size).toBe(0);
    expect(a.signal.aborted).toBe(false);
    await expect(d.start().race(async () => { throw new Error('boom'); })).rejects.toThrow('boom');
    await expect(d.start().race(() => { throw new Error('sync'); })).rejects.toThrow('sync');
    expect(d.size).toBe(0);
  });

  it('stops a handler past its limit with 503 unavailable and aborts its signal', async () => {
    const d = new Deadlines(40);
    const hung = d.start();
    let seen: AbortSignal | undefined;
    const answer = hung.race(() => {
      seen = hung.signal;
      return new Promise<never>(() => {});
    });
    const late = d.start(); // never reads its signal until after the limit
    const lateAnswer = late.race(() => new Promise<never>(() => {}));
    const inTime = d.start().race(async () => (await sleep(5), 'ok'));
    const err = await answer.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CatintelError);
    expect((err as CatintelError).code).toBe('unavailable');
    expect((err as CatintelError).headers).toEqual({ 'retry-after': '10' });
    expect(seen!.aborted).toBe(true);
    await expect(lateAnswer).rejects.toThrow(/took longer than 0.04 s/);
    expect(late.signal.aborted).toBe(true);
    expect(await inTime).toBe('ok');
    expect(d.size).toBe(0);
  });
});
