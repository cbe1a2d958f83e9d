/**
 * "As of now" (docs/contract.md#as-of-now): an ingest keeps only what the source had published by the clock
 * (CATINTEL_NOW / --as-of), so a replay at a past instant shows the state of that instant.
 *
 * Two layers share this rule. ingest/run.ts drops every record whose publication time (the source's own
 * update time, `sourceUpdatedAt`) is after the clock, generically for every source. A source whose one
 * record is assembled from many timed parts (the fixes of a b-deck, the readings of a gauge) cuts those
 * parts here first, in its parser, so the record it builds is the one it would have built at that
 * instant: position, intensity, rings and lifecycle of the last part at or before now.
 */
import type { SkippedRecord } from '../domain/event.js';

/** The one skip reason (tallied per run) of a record published after the clock. */
export function publishedAfterClock(now: Date): string {
  return `published after the clock (${now.toISOString()}); set CATINTEL_NOW or --as-of later to include it`;
}

/** The parts timed at or before now (timeMs in epoch milliseconds), in their order. */
export function partsAsOf<T>(parts: readonly T[], timeMs: (p: T) => number, now: Date): T[] {
  const limit = now.getTime();
  return parts.filter((p) => timeMs(p) <= limit);
}

/** A record none of whose parts had been published by now. */
export function notYetPublished(sourceId: string, now: Date): SkippedRecord {
  return { sourceId, reason: publishedAfterClock(now) };
}
