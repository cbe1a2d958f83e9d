/**
 * `make data` (backtest part): builds data/catalogs/, the compact historical catalogs `trigger backtest`
 * replays, from the public catalogs in ../shared/data (the same files the hazard baseline is built from,
 * src/reference-data/inputs.ts), so that an installed catintel backtests offline with no shared data directory.
 * Parsed by the backtest's own parsers (src/triggers/backtest/catalogs.ts) and cut to the fields it uses:
 *  - storms.ndjson.gz: one HURDAT2 storm a line, {id, name, year, basin, fixes: [[hours, lat, lng, windKt,
 *    pressureMb|null(, rmwNm, r34Nm|null, r50Nm|null, r64Nm|null)], ...]} (the last four, the storm's own
 *    size, only where HURDAT2 gives the radius of maximum wind: 2021 on), Atlantic then NE/N-Central
 *    Pacific, each in catalog order (by year, then id);
 *  - quakes.ndjson.gz: one NSHM event a line, [catalog, magnitude, lat, lng, depthKm, year, time] (the
 *    catalog's year: a 24:00 entry on 31 December rolls its time into the next year), CEUS then WUS,
 *    each by origin time (stable: simultaneous entries keep catalog order).
 * Numbers are written as JSON.stringify writes them, which reads back to the identical double; gzip at a
 * fixed level 9 with zlib's zero mtime, so the same inputs always give the same bytes (test/catalogs.test.ts).
 *   npx tsc -p tsconfig.json && node dist/scripts/build-catalogs.js [--from ../shared/data] [--out data/catalogs]
 */
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { Inputs } from '../src/reference-data/inputs.js';
import {
  fixTuple,
  parseDatedCatalog,
  parseNamedStorms,
  QUAKES_FILE,
  STORMS_FILE,
} from '../src/triggers/backtest/catalogs.js';

const byYearThenId = (a: { year: number; id: string }, b: { year: number; id: string }) =>
  a.year - b.year || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const byTime = (a: { time: string }, b: { time: string }) => (a.time < b.time ? -1 : a.time > b.time ? 1 : 0);

function gzipLines(lines: string[]): Buffer {
  return gzipSync(lines.join('\n') + '\n', { level: 9 });
}

export function buildCatalogs(fromDir: string, outDir: string): { storms: number; quakes: number } {
  const inputs = new Inputs(fromDir);
  const storms = [
    ...parseNamedStorms(inputs.text('hurdatAtlantic'), 'atlantic').sort(byYearThenId),
    ...parseNamedStorms(inputs.text('hurdatPacific'), 'pacific').sort(byYearThenId),
  ];
  const quakes = [
    ...parseDatedCatalog(inputs.text('ceusCatalog'), 'ceus').sort(byTime),
    ...parseDatedCatalog(inputs.text('wusCatalog'), 'wus').sort(byTime),
  ];
  fs.mkdirSync(outDir, { recursive: true });
  const stormLines = storms.map((s) =>
    JSON.stringify({ id: s.id, name: s.name, year: s.year, basin: s.basin, fixes: s.fixes.map(fixTuple) }),
  );
  const quakeLines = quakes.map((q) =>
    JSON.stringify([q.catalog, q.magnitude, q.lat, q.lng, q.depthKm, q.year, q.time]),
  );
  fs.writeFileSync(path.join(outDir, STORMS_FILE), gzipLines(stormLines));
  fs.writeFileSync(path.join(outDir, QUAKES_FILE), gzipLines(quakeLines));
  return { storms: storms.length, quakes: quakes.length };
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const out = arg('--out', 'data/catalogs');
  const counts = buildCatalogs(arg('--from', '../shared/data'), out);
  process.stdout.write(JSON.stringify({ catalogs: counts, out }) + '\n');
}
