/**
 * The memory the live index assembles response bodies in. Bodies are carved from slabs, as Node pools small
 * Buffers: one allocation per slab instead of one per body (a 50 KB Buffer of its own cost more than copying
 * the body into it).
 *
 * A slab is used again once every body cut from it has been released, that is, written out to its socket
 * (the HTTP layer calls release() when the response has finished, src/http/app.ts). Reused memory is still
 * in the processor's cache, where a fresh slab is not: writing a 50 KB body into cold memory and the kernel
 * then reading it out again was a large part of an uncached /events/live request (docs/performance.md).
 * A body nobody releases (the CLI, tests, a response that never finished) keeps its slab from being reused:
 * the slab is then freed by the collector once no body cut from it is referenced, as before. A body kept for
 * long is copied out of its slab (ownBytes(), the response cache), so a release can never reach a kept body.
 */
const SLAB_BYTES = 256 * 1024;
/** Larger bodies get memory of their own. */
const MAX_CARVED = SLAB_BYTES / 2;
/** Released slabs kept for reuse; beyond these, left to the collector. */
const SPARE_MAX = 4;

interface Slab {
  bytes: Buffer;
  used: number;
  /** Bodies cut from this slab and not yet released. */
  outstanding: number;
}

const slabOf = new WeakMap<ArrayBufferLike, Slab>();
const spare: Slab[] = [];
/** Slabs allocated and reused since the process started (test/live-index-sockets.test.ts reads them). */
const counts = { allocated: 0, reused: 0 };
let current = newSlab();

function newSlab(): Slab {
  const slab: Slab = { bytes: Buffer.allocUnsafeSlow(SLAB_BYTES), used: 0, outstanding: 0 };
  slabOf.set(slab.bytes.buffer, slab);
  counts.allocated++;
  return slab;
}

export function slabCounts(): { allocated: number; reused: number } {
  return { ...counts };
}

/** `size` bytes to write a body into. */
export function carve(size: number): Buffer {
  if (size > MAX_CARVED) return Buffer.allocUnsafeSlow(size);
  if (current.used + size > SLAB_BYTES) {
    const full = current;
    const again = spare.pop();
    if (again) counts.reused++;
    current = again ?? newSlab();
    current.used = 0;
    // Every body of the full slab was already released: it can be the next spare at once.
    if (full.outstanding === 0 && spare.length < SPARE_MAX) spare.push(full);
  }
  const body = current.bytes.subarray(current.used, current.used + size);
  current.used = (current.used + size + 7) & ~7;
  current.outstanding++;
  return body;
}

/**
 * `body` has been written out and nothing reads it again: once every body of its slab is, the slab's memory
 * is reused. Call it once per body carved, and only then; for any other Buffer it does nothing.
 */
export function release(body: Uint8Array): void {
  const slab = slabOf.get(body.buffer);
  if (slab === undefined || --slab.outstanding > 0 || slab === current) return;
  if (spare.length < SPARE_MAX) spare.push(slab);
}

/** Whether `body` was cut from a slab (so that release() applies to it). */
export function isCarved(body: Uint8Array): boolean {
  return slabOf.has(body.buffer);
}

/** A body that does not share a slab: `body` itself unless it was cut from one, else a copy. */
export function ownBytes(body: Buffer): Buffer {
  return isCarved(body) ? Buffer.from(body) : body;
}
