/**
 * `catintel db seed`: loads the embedded default snapshot (data/seed/, built by `make data` from real
 * feed samples) into the store through the ordinary ingest path, one run per source. Re-running it
 * changes nothing. The snapshot is as of data/seed/as-of.txt; pin "now" to that instant (`--as-of`, or
 * CATINTEL_NOW as `make run` does) to see its events live.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { SourceRecord } from '../domain/event.js';
import { CatintelError } from '../errors.js';
import type { IngestSummary } from '../store/ingest-runs.js';
import { packageRoot } from '../lib/package-root.js';
import type { SourceModule } from '../sources/types.js';
import { str } from './params.js';
import { defineHandler } from './types.js';

/** The seed shipped with the package: <package root>/data/seed. */
export const defaultSeedDir = () => path.join(packageRoot(), 'data', 'seed');

/** A source module that reads our own NDJSON of already-normalised records for that source. */
function seedReaderOf(source: SourceModule): SourceModule {
  return {
    ...source,
    parse(body) {
      const records = body
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as SourceRecord);
      if (records.some((r) => r.source !== source.id)) {
        throw new CatintelError('invalid_input', `seed file for ${source.id} holds records of another source`);
      }
      return { records, skipped: [] };
    },
  };
}

export const dbSeed = defineHandler({
  name: 'db.seed',
  summary: 'Load the embedded default snapshot of real feed samples into the store',
  writes: true,
  cli: {
    command: ['db', 'seed'],
    options: [{ flags: '--from <dir>', description: 'seed directory (default: the packaged data/seed)' }],
    paths: ['from'],
    examples: [
      'catintel db seed',
      'catintel --as-of 2022-09-29T03:32:09Z events live   # the snapshot as of its instant (data/seed/as-of.txt)',
    ],
  },
  parse: (raw) => ({ dir: str(raw, 'from') ?? defaultSeedDir() }),
  async run(ctx, { dir }) {
    let files: string[];
    try {
      files = fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.ndjson.gz'))
        .sort();
    } catch {
      throw new CatintelError('invalid_input', `seed directory ${dir} cannot be read; run \`make data\` to build it`);
    }
    if (files.length === 0)
      throw new CatintelError('invalid_input', `seed directory ${dir} holds no *.ndjson.gz files; run \`make data\``);
    const { ingestSource } = await import('../ingest/run.js');
    const { sourceById } = await import('../sources/registry.js');
    const runs: IngestSummary[] = [];
    for (const f of files) {
      const source = sourceById(f.replace(/\.ndjson\.gz$/, ''));
      runs.push(await ingestSource(ctx, seedReaderOf(source), path.join(dir, f)));
    }
    const asOf = fs.existsSync(path.join(dir, 'as-of.txt'))
      ? fs.readFileSync(path.join(dir, 'as-of.txt'), 'utf8').trim()
      : null;
    return { body: { as_of: asOf, runs } };
  },
});
