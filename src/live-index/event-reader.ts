/**
 * What a handler reads live events through when the server holds them in memory: the snapshot that answers
 * at an instant, or undefined (read the store). The context names this, not the index that implements it
 * (live-index.ts), so the context stays importable from anywhere without pulling in the index's loader.
 */
import type { Snapshot } from './snapshot.js';

export interface LiveEventReader {
  /** The snapshot that answers at nowUs (microseconds since the epoch), or undefined: ask the store. */
  at(nowUs: number): Snapshot | undefined;
}
