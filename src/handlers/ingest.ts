/** `catintel ingest [source...] [--from FILE_OR_URL]`: one run per source, each its own transaction. */
import { SOURCE_IDS } from '../domain/event.js';
import { CatintelError, exitCodeOf, type ErrorCode } from '../errors.js';
import type { IngestSummary } from '../store/ingest-runs.js';
import type { Context } from '../context.js';
import type { ShakeMap } from '../sources/shakemap.js';
import { parseSourceId } from '../sources/source-ids.js';
import type { SourceModule } from '../sources/types.js';
import { str } from './params.js';
import { defineHandler } from './types.js';

/** A source whose run failed while others were read (its run is recorded as failed in ingest_runs). */
export interface FailedIngest {
  source: string;
  status: 'failed';
  code: ErrorCode;
  error: string;
}

export interface IngestInput {
  sources: string[];
  from?: string;
  /** A ShakeMap file (cont_mmi.json or grid.xml) for one event of the usgs-earthquakes feed. */
  shakemap?: string;
}

export const ingest = defineHandler({
  name: 'ingest',
  summary: 'Ingest live disaster feeds (or a recorded file) into the store',
  writes: true,
  cli: {
    command: ['ingest'],
    args: ['sources...'],
    options: [
      {
        flags: '--from <file-or-url>',
        description: 'read this file or URL instead of the official feed (one source only)',
      },
      {
        flags: '--watch <seconds>',
        description:
          'repeat every N seconds until SIGINT/SIGTERM (exit 0); a failed round is logged and retried sooner',
      },
      {
        flags: '--shakemap <file>',
        description: 'usgs-earthquakes: rings from this USGS ShakeMap (cont_mmi.json or grid.xml) for its event',
      },
    ],
    paths: ['from', 'shakemap'],
    // A source that failed among several: the worst exit code of the failures (1 for a feed that is down).
    exitCode: (body: { runs: (IngestSummary | FailedIngest)[] }) =>
      Math.max(0, ...body.runs.map((r) => (r.status === 'failed' ? exitCodeOf[r.code] : 0))),
    examples: [
      'catintel ingest                     # every source, online',
      'catintel ingest usgs-earthquakes nws-alerts',
      'catintel ingest usgs-earthquakes --from all_week.geojson --json',
      'catintel ingest nhc --from bal092022.dat',
      'catintel ingest usgs-earthquakes --from nc216859.geojson --shakemap grid.xml',
      'catintel ingest --watch 300         # every 5 minutes, for cron-less hosts',
    ],
  },
  parse(raw): IngestInput {
    const given = raw.sources;
    const sources = Array.isArray(given) && given.length > 0 ? given.map(String) : [...SOURCE_IDS];
    sources.forEach(parseSourceId); // validates the names before any parser loads
    const from = str(raw, 'from');
    if (from && sources.length !== 1) {
      throw new CatintelError(
        'invalid_parameter',
        `--from reads one feed: name its source, e.g. \`catintel ingest usgs-earthquakes --from ${from}\``,
        {
          errors: [{ field: 'sources', message: 'exactly one source with --from' }],
        },
      );
    }
    const shakemap = str(raw, 'shakemap');
    if (shakemap && (sources.length !== 1 || sources[0] !== 'usgs-earthquakes')) {
      throw new CatintelError(
        'invalid_parameter',
        `--shakemap gives one earthquake's ShakeMap: use it with the usgs-earthquakes source alone, e.g. \`catintel ingest usgs-earthquakes --from FEED --shakemap ${shakemap}\``,
        {
          errors: [{ field: 'shakemap', message: 'only with the usgs-earthquakes source' }],
        },
      );
    }
    return { sources: [...new Set(sources)], from, shakemap };
  },
  async run(ctx, input) {
    // Parsers, county shapes and geometry libraries load only when something is ingested.
    const { ingestSource } = await import('../ingest/run.js');
    const runs: (IngestSummary | FailedIngest)[] = [];
    // USGS events get ShakeMap rings: from --shakemap, or online from the ShakeMaps their feed lists.
    const { readShakeMapFile } = await import('../sources/shakemap.js');
    const shakemapFile = input.shakemap
      ? { map: await readShakeMapFile(input.shakemap), name: input.shakemap }
      : undefined;
    for (const id of input.sources) {
      try {
        runs.push(await ingestSource(ctx, await sourceModuleFor(ctx, id, shakemapFile), input.from));
      } catch (err) {
        // One source: its error is the answer (and its exit code). Several (cron's plain `catintel ingest`):
        // a feed that is down must not keep the others from being read; the failure is listed and the
        // command exits with its code once every source has had its run (each run its own transaction).
        if (input.sources.length === 1 || !(err instanceof CatintelError) || ctx.signal?.aborted) throw err;
        runs.push({ source: id, status: 'failed', code: err.code, error: err.message });
      }
    }
    return { body: { runs } };
  },
});

/**
 * The source module ingest runs for `id`: usgs-earthquakes reads ShakeMaps (the given file, or online the
 * ones its feed lists, with the ingest's own fetch settings); every other source is its registry module.
 * Any caller that ingests (the CLI, the server's scheduler) should take its module from here.
 */
export async function sourceModuleFor(
  ctx: Context,
  id: string,
  shakemapFile?: { map: ShakeMap; name: string },
): Promise<SourceModule> {
  const { sourceById } = await import('../sources/registry.js');
  if (id !== 'usgs-earthquakes') return sourceById(id);
  const { usgsEarthquakesWithShakeMaps } = await import('../sources/usgs-earthquakes.js');
  const fetch = {
    userAgent: ctx.config.userAgent,
    timeoutMs: ctx.config.fetchTimeoutMs,
    attempts: ctx.config.fetchAttempts,
    backoffMs: ctx.config.fetchBackoffMs,
    signal: ctx.signal,
  };
  const { shakeMapGridKeyAt } = await import('../store/shakemap-grids.js');
  const { eventIdOf } = await import('../lib/ids.js');
  // A ShakeMap's grid.xml is megabytes: fetched only when the grid stored for the event is of another product.
  const storedGrid = (sourceId: string) =>
    shakeMapGridKeyAt(ctx.db, eventIdOf('usgs-earthquakes', sourceId), ctx.clock().toISOString());
  return usgsEarthquakesWithShakeMaps({ file: shakemapFile, fetch, lookup: { storedGrid } });
}
