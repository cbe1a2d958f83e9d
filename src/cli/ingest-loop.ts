/**
 * `catintel serve --ingest-every N`: every N seconds, ingest every source online into the server's store,
 * evaluate the parametric triggers against what came in, and tell the server the store changed. A slow
 * feed does not stack runs: a tick while a run is in progress only reschedules.
 */
import type { Context } from '../context.js';
import { SOURCE_IDS } from '../domain/event.js';

export interface IngestLoop {
  /** No more ticks; the run in progress, if any, goes on (the server's stop signal ends it). */
  halt(): void;
  /** Resolves when the run in progress, if any, has ended. */
  settled(): Promise<void>;
}

export async function startIngestLoop(
  ctx: Context,
  everySeconds: number,
  storeChanged: () => Promise<void>,
): Promise<IngestLoop> {
  let ingesting: Promise<void> | undefined;
  const ingestAll = async () => {
    const { ingestSource } = await import('../ingest/run.js');
    const { sourceModuleFor } = await import('../handlers/ingest.js');
    for (const id of SOURCE_IDS) {
      try {
        const s = await ingestSource(ctx, await sourceModuleFor(ctx, id)); // usgs-earthquakes with its ShakeMaps
        ctx.log('info', 'ingest', { source: id, status: s.status, inserted: s.inserted, updated: s.updated });
      } catch (err) {
        ctx.log('warn', 'ingest failed', { source: id, error: (err as Error).message });
      }
    }
    // Parametric triggers against what was just ingested (docs/triggers.md "Runs").
    const { evaluateAfterIngest } = await import('../triggers/scheduled.js');
    await evaluateAfterIngest(ctx);
    await storeChanged();
  };
  // /health/sources reports the next tick (src/ingest/schedule.ts).
  const { setIngestSchedule } = await import('../ingest/schedule.js');
  const scheduleNext = () => setIngestSchedule({ everySeconds, nextRunMs: Date.now() + everySeconds * 1000 });
  if (everySeconds > 0) scheduleNext();
  const timer =
    everySeconds > 0
      ? setInterval(() => {
          scheduleNext();
          if (ingesting) return; // a slow feed must not stack runs
          ingesting = ingestAll().finally(() => (ingesting = undefined));
        }, everySeconds * 1000)
      : undefined;
  return {
    halt() {
      if (timer) clearInterval(timer);
      setIngestSchedule(null);
    },
    async settled() {
      await ingesting;
    },
  };
}
