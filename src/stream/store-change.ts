/**
 * What one store change may have touched, as far as its writer knows, so that the change feed (feed.ts)
 * re-reads only what it may have moved. A change nobody describes may have touched anything: the feed's
 * `refresh()` without one re-reads everything, as `catintel serve`'s ingest loop (ingest, then a round) wants.
 */
export interface StoreChange {
  /**
   * It may have run a trigger evaluation round (src/triggers/run.ts), the only writer of the stored
   * probabilities to trigger now. Triggers created, paused or deleted need no flag: the feed sees the set of
   * active triggers move in the read it makes on every change anyway.
   */
  evaluatedTriggers: boolean;
}

/** A change its writer says nothing about. */
export const ANY_CHANGE: StoreChange = { evaluatedTriggers: true };

/** The feed's own timer: nothing was written, only the clock moved (it ends events). */
export const CLOCK_ONLY: StoreChange = { evaluatedTriggers: false };
