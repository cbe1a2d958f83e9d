/**
 * The I/O edge of the backtest: read the compact catalogs embedded in the package (data/catalogs/, built by
 * scripts/build-catalogs.ts with `make data` from the public catalogs the hazard baseline uses, and checked
 * byte for byte by test/catalogs.test.ts), so a backtest needs no shared data directory at run time; parse
 * and index them once per process. The parsers below turn the public files (HURDAT2 with the storm names
 * from the block headers; the NSHM catalogs with their origin times, which the baseline's parser drops)
 * into the records the build writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parseHurdat2 } from '../../reference-data/hurdat2.js';
import { baselineRingOptions } from '../../reference-data/ring-options.js';
import { CatintelError } from '../../errors.js';
import { packageRoot } from '../../lib/package-root.js';
import type { BacktestCatalogs } from './domain/backtest.js';
import type { MeanRadiiNm } from '../domain/record-profile.js';
import { buildQuakeIndex, type CatalogQuake } from './domain/quakes.js';
import { buildStormIndex, type CatalogStorm } from './domain/storms.js';

export const STORMS_FILE = 'storms.ndjson.gz';
export const QUAKES_FILE = 'quakes.ndjson.gz';

/** data/catalogs/ of the installed package. */
export function embeddedCatalogDir(): string {
  return path.join(packageRoot(), 'data', 'catalogs');
}

/** Storms of one HURDAT2 file, named from their header lines ("AL092022, IAN, 40,"). */
export function parseNamedStorms(text: string, basin: CatalogStorm['basin']): CatalogStorm[] {
  const names = new Map<string, string>();
  for (const m of text.matchAll(/^([A-Z]{2}\d{6}),\s*([^,]*?)\s*,\s*\d+\s*,/gm)) names.set(m[1], m[2]);
  return parseHurdat2(text).map((s) => ({
    id: s.id,
    name: names.get(s.id) || 'UNNAMED',
    year: s.year,
    basin,
    fixes: s.fixes.map((f) => ({
      hours: f.hours,
      lat: f.lat,
      lng: f.lng,
      windKt: f.windKt,
      pressureMb: f.pressureMb,
      ...sizeOf(f),
    })),
  }));
}

/** The fix's own size when HURDAT2 gives its radius of maximum wind (2021 on): RMW and the mean radii it has. */
function sizeOf(f: {
  rmwNm: number | null;
  r34Nm: number | null;
  r50Nm: number | null;
  r64Nm: number | null;
}): Pick<CatalogStorm['fixes'][number], 'rmwNm' | 'radiiNm'> {
  if (f.rmwNm === null) return {};
  const radiiNm: MeanRadiiNm = {};
  if (f.r34Nm !== null) radiiNm[34] = f.r34Nm;
  if (f.r50Nm !== null) radiiNm[50] = f.r50Nm;
  if (f.r64Nm !== null) radiiNm[64] = f.r64Nm;
  return { rmwNm: f.rmwNm, radiiNm };
}

/** NSHM catalog lines: Mw lon lat depth yr mo dy hr mi sec ... (both the CEUS .c2 and the WUS .c3 files). */
export function parseDatedCatalog(text: string, catalog: CatalogQuake['catalog']): CatalogQuake[] {
  const out: CatalogQuake[] = [];
  for (const line of text.split(/\r?\n/)) {
    const p = line.trim().split(/\s+/);
    if (p.length < 10) continue;
    const [magnitude, lng, lat, depthKm, year, mo, dy, hr, mi, sec] = p
      .slice(0, 10)
      .map((x) => Number(x.replace(/\.$/, '')));
    if (![magnitude, lng, lat, depthKm, year, mo, dy, hr, mi].every(Number.isFinite)) continue; // header lines
    // Date.UTC rolls over the catalogs' occasional 24:00 or 60-second entries into valid instants.
    const ms = Date.UTC(year, Math.max(1, mo) - 1, Math.max(1, dy), hr, mi, Number.isFinite(sec) ? Math.floor(sec) : 0);
    const time = new Date(ms).toISOString().replace('.000Z', 'Z');
    out.push({ id: `${catalog}:${time}`, catalog, magnitude, lat, lng, depthKm, year, time });
  }
  return out;
}

function readLines(dir: string, file: string): string[] {
  const p = path.join(dir, file);
  if (!fs.existsSync(p)) {
    // Not a user error: the package ships these files; a checkout that lacks them has not run the data build.
    throw new CatintelError(
      'internal_error',
      `the backtest catalog ${p} is missing from this installation; rebuild it with \`make data\` (scripts/build-catalogs.ts) and reinstall`,
    );
  }
  return gunzipSync(fs.readFileSync(p))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.length > 0);
}

/** A fix: [hours, lat, lng, windKt, pressureMb], then [rmwNm, r34Nm, r50Nm, r64Nm] when HURDAT2 gives the RMW. */
export type FixTuple =
  | [number, number, number, number, number | null]
  | [number, number, number, number, number | null, number, number | null, number | null, number | null];
type StormLine = { id: string; name: string; year: number; basin: CatalogStorm['basin']; fixes: FixTuple[] };

/** The catalog's line form of a fix (scripts/build-catalogs.ts writes it; stormOf reads it back). */
export function fixTuple(f: CatalogStorm['fixes'][number]): FixTuple {
  const base: [number, number, number, number, number | null] = [f.hours, f.lat, f.lng, f.windKt, f.pressureMb];
  if (f.rmwNm === undefined) return base;
  return [...base, f.rmwNm, f.radiiNm?.[34] ?? null, f.radiiNm?.[50] ?? null, f.radiiNm?.[64] ?? null];
}
type QuakeLine = [CatalogQuake['catalog'], number, number, number, number, number, string];

function stormOf(line: string): CatalogStorm {
  const s = JSON.parse(line) as StormLine;
  return {
    ...s,
    fixes: s.fixes.map(([hours, lat, lng, windKt, pressureMb, rmwNm, r34, r50, r64]) => {
      if (rmwNm === undefined) return { hours, lat, lng, windKt, pressureMb };
      const radiiNm: MeanRadiiNm = {};
      if (r34 != null) radiiNm[34] = r34;
      if (r50 != null) radiiNm[50] = r50;
      if (r64 != null) radiiNm[64] = r64;
      return { hours, lat, lng, windKt, pressureMb, rmwNm, radiiNm };
    }),
  };
}

function quakeOf(line: string): CatalogQuake {
  const [catalog, magnitude, lat, lng, depthKm, year, time] = JSON.parse(line) as QuakeLine;
  return { id: `${catalog}:${time}`, catalog, magnitude, lat, lng, depthKm, year, time };
}

const spanOf = (years: number[]) => ({ first: Math.min(...years), last: Math.max(...years) });

/** Read and index the embedded catalogs (or a directory the build wrote; cached per directory). */
export function loadCatalogs(dir: string = embeddedCatalogDir(), baselineDir?: string): BacktestCatalogs {
  const storms = readLines(dir, STORMS_FILE).map(stormOf);
  const quakes = readLines(dir, QUAKES_FILE).map(quakeOf);
  const atlantic = storms.filter((s) => s.basin === 'atlantic');
  const pacific = storms.filter((s) => s.basin === 'pacific');
  const ceus = quakes.filter((q) => q.catalog === 'ceus');
  const wus = quakes.filter((q) => q.catalog === 'wus');
  return {
    storms: buildStormIndex(storms),
    quakes: buildQuakeIndex(quakes),
    radiusScale: baselineRingOptions(baselineDir).hurricaneRadiusScale!(),
    span: {
      atlantic: spanOf(atlantic.map((s) => s.year)),
      pacific: spanOf(pacific.map((s) => s.year)),
      ceus: spanOf(ceus.map((q) => q.year)),
      wus: spanOf(wus.map((q) => q.year)),
    },
  };
}

const cache = new Map<string, BacktestCatalogs>();

export function catalogsFor(dir: string = embeddedCatalogDir()): BacktestCatalogs {
  let hit = cache.get(dir);
  if (!hit) {
    hit = loadCatalogs(dir);
    cache.set(dir, hit);
  }
  return hit;
}
