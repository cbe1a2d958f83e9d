/** `catintel ingest [source...] [--from FILE_OR_URL]`: one run per source, each its own transaction. */
import { SOURCE_IDS } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import type { IngestSummary } from '../ingest/run.js';
import { parseSourceId } from '../sources/source-ids.js';
import { str } from './params.js';
import { defineHandler } from './types.js';

export interface IngestInput {
  sources: string[];
  from?: string;
}

export const ingest = defineHandler({
  name: 'ingest',
  summary: 'Ingest live disaster feeds (or a recorded file) into the store',
  writes: true,
  cli: {
    command: ['ingest'],
    args: ['sources...'],
    options: [
      { flags: '--from <file-or-url>', description: 'read this file or URL instead of the official feed (one source only)' },
      { flags: '--watch <seconds>', description: 'repeat every N seconds until interrupted' },
    ],
    examples: [
      'catintel ingest                     # every source, online',
      'catintel ingest usgs-earthquakes nws-alerts',
      'catintel ingest usgs-earthquakes --from all_week.geojson --json',
      'catintel ingest nhc --from bal092022.dat',
      'catintel ingest --watch 300         # every 5 minutes, for cron-less hosts',
    ],
  },
  parse(raw): IngestInput {
    const given = raw.sources;
    const sources = Array.isArray(given) && given.length > 0 ? given.map(String) : [...SOURCE_IDS];
    sources.forEach(parseSourceId); // validates the names before any parser loads
    const from = str(raw, 'from');
    if (from && sources.length !== 1) {
      throw new CatintelError('invalid_parameter', `--from reads one feed: name its source, e.g. \`catintel ingest usgs-earthquakes --from ${from}\``, {
        errors: [{ field: 'sources', message: 'exactly one source with --from' }],
      });
    }
    return { sources: [...new Set(sources)], from };
  },
  async run(ctx, input) {
    // Parsers, county shapes and geometry libraries load only when something is ingested.
    const { ingestSource } = await import('../ingest/run.js');
    const { sourceById } = await import('../sources/registry.js');
    const runs: IngestSummary[] = [];
    for (const id of input.sources) runs.push(await ingestSource(ctx, sourceById(id), input.from));
    return { body: { runs } };
  },
});
