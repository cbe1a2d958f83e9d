/**
 * The last N changes, for Last-Event-ID resume. Bounded by count (streamDefaults.backlogSize): a client
 * away for longer than the backlog covers is told so (a `reset`) and sent the current live set instead.
 */
import type { Change } from './messages.js';

export class Backlog {
  private items: Change[] = [];

  constructor(readonly capacity: number) {}

  push(c: Change): void {
    this.items.push(c);
    if (this.items.length > this.capacity) this.items.splice(0, this.items.length - this.capacity);
  }

  /** The newest sequence number held (0 before any change). */
  get head(): number {
    return this.items.length ? this.items[this.items.length - 1].seq : 0;
  }

  /**
   * The changes after `seq`, or null when some of them have already dropped out (a gap: the caller
   * resets the client). `seq` equal to the head, or ahead of it, is an up-to-date client.
   */
  after(seq: number, head: number): Change[] | null {
    if (seq >= head) return [];
    const first = this.items[0];
    if (!first || first.seq > seq + 1) return null;
    return this.items.filter((c) => c.seq > seq);
  }
}
