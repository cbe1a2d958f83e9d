/**
 * Builds data/flood-stages.csv (NWS flood categories per USGS gauge) from the NWPS all-gauges report.
 *   npx tsc -p tsconfig.json && node dist/scripts/build-flood-stages.js [--from FILE_OR_URL] [--out FILE]
 * Defaults: --from ../shared/data/feeds/nwps/nwps_all_gauges_report.csv, --out data/flood-stages.csv.
 * Online, --from https://water.noaa.gov/resources/downloads/reports/nwps_all_gauges_report.csv reads the
 * live report. The rules are in src/sources/reference/flood-stages-build.ts.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { buildFloodStagesCsv } from '../src/sources/reference/flood-stages-build.js';

export const DEFAULT_FROM = '../shared/data/feeds/nwps/nwps_all_gauges_report.csv';
export const DEFAULT_OUT = 'data/flood-stages.csv';

export async function main(argv: string[]): Promise<string> {
  const opt = (name: string, dflt: string) => {
    const i = argv.indexOf(name);
    return i >= 0 && argv[i + 1] ? argv[i + 1] : dflt;
  };
  const from = opt('--from', DEFAULT_FROM);
  const out = opt('--out', DEFAULT_OUT);
  const text = /^https?:\/\//.test(from) ? await (await fetch(from)).text() : await readFile(from, 'utf8');
  const { csv, stats } = buildFloodStagesCsv(text);
  await writeFile(out, csv);
  return (
    `flood stages: ${stats.kept} gauges written to ${out} (report rows ${stats.rows}, with USGS id ${stats.withUsgsId}, ` +
    `unrecoverable ids ${stats.badUsgsId}, no category ${stats.noStages}, duplicate ids ${stats.duplicates})`
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (msg) => console.log(msg),
    (err: unknown) => {
      console.error(`build-flood-stages: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}
