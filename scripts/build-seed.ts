/**
 * `make data` (seed part): builds the embedded default store's snapshot, data/seed/, from the real feed
 * samples in ../shared/data. Each sample is parsed by the same source module `catintel ingest` uses,
 * at one fixed instant, and the normalised records are written as gzipped NDJSON sorted by source id,
 * so the same inputs give byte-identical output.
 *
 * The instant is the generation time of the USGS all_day sample, 2022-09-29T03:32:09Z: Hurricane Ian
 * had made landfall in south-west Florida a few hours before. Every sample is read as of that instant,
 * exactly as `CATINTEL_NOW=2022-09-29T03:32:09Z catintel ingest` reads it (src/sources/as-of.ts): the
 * ATCF best track of Ian keeps the fixes known then, records published later are left out, and the
 * recorded NWS alert bundle (whose times are relative placeholders) is resolved against it.
 * Hand-written fixtures are not real data and stay out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { SourceRecord } from '../src/domain/event.js';
import { SOURCES } from '../src/sources/registry.js';
import type { SourceId } from '../src/domain/event.js';
import { notPublishedBy } from '../src/ingest/normalise.js';

export const SEED_AS_OF = '2022-09-29T03:32:09Z';

interface SeedInput {
  source: SourceId;
  file: string;
}

const INPUTS: SeedInput[] = [
  { source: 'usgs-earthquakes', file: 'feeds/usgs_earthquakes/all_day.geojson' },
  { source: 'nhc', file: 'hazard_history/hurricanes/bal092022.dat' },
  { source: 'nws-alerts', file: 'feeds/nws_alerts/alerts_active_national_templated-times.json' },
  { source: 'usgs-gauges', file: 'feeds/usgs_water/waterservices_iv_01491000_01645000.json' },
];

export async function buildSeed(fromDir: string, outDir: string): Promise<Record<string, number>> {
  fs.mkdirSync(outDir, { recursive: true });
  const counts: Record<string, number> = {};
  for (const input of INPUTS) {
    const file = path.join(fromDir, input.file);
    const now = new Date(SEED_AS_OF);
    const parsed = await SOURCES[input.source].parse(fs.readFileSync(file, 'utf8'), {
      now,
      sourceUrl: `file:${input.file}`,
    });
    const records = parsed.records
      .filter((r: SourceRecord) => notPublishedBy(r, now) === null)
      .sort((a, b) => (a.sourceId < b.sourceId ? -1 : a.sourceId > b.sourceId ? 1 : 0));
    const ndjson = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    fs.writeFileSync(path.join(outDir, `${input.source}.ndjson.gz`), gzipSync(ndjson, { level: 9 }));
    counts[input.source] = records.length;
  }
  fs.writeFileSync(path.join(outDir, 'as-of.txt'), `${SEED_AS_OF}\n`);
  return counts;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const counts = await buildSeed(arg('--from', '../shared/data'), arg('--out', 'data/seed'));
  process.stdout.write(JSON.stringify({ seed: counts, as_of: SEED_AS_OF }) + '\n');
}
