/**
 * The I/O edge of the backtest: read the public catalogs the hazard baseline is built from (the same files,
 * src/databuild/inputs.ts) from the shared data directory (CATINTEL_SHARED_DATA, default ../shared/data
 * beside the package, as `catintel data build`), parse and index them once per process. HURDAT2 through
 * the baseline's own parser, with the storm names from the block headers; the NSHM catalogs with their
 * origin times (the baseline's parser keeps only the year).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseHurdat2 } from '../../databuild/hurdat2.js';
import { INPUTS } from '../../databuild/inputs.js';
import { ingestRingOptions } from '../../ingest/ring-options.js';
import { CatintelError } from '../../errors.js';
import { packageRoot } from '../../lib/package-root.js';
import type { BacktestCatalogs } from './domain/backtest.js';
import { buildQuakeIndex, type CatalogQuake } from './domain/quakes.js';
import { buildStormIndex, type CatalogStorm } from './domain/storms.js';

export function sharedDataDir(env?: Readonly<Record<string, string | undefined>>): string {
  return path.resolve(env?.CATINTEL_SHARED_DATA || path.join(packageRoot(), '..', 'shared', 'data'));
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
    fixes: s.fixes.map((f) => ({ hours: f.hours, lat: f.lat, lng: f.lng, windKt: f.windKt, pressureMb: f.pressureMb })),
  }));
}

/** NSHM catalog lines: Mw lon lat depth yr mo dy hr mi sec ... (both the CEUS .c2 and the WUS .c3 files). */
export function parseDatedCatalog(text: string, catalog: CatalogQuake['catalog']): CatalogQuake[] {
  const out: CatalogQuake[] = [];
  for (const line of text.split(/\r?\n/)) {
    const p = line.trim().split(/\s+/);
    if (p.length < 10) continue;
    const [magnitude, lng, lat, depthKm, year, mo, dy, hr, mi, sec] = p.slice(0, 10).map((x) => Number(x.replace(/\.$/, '')));
    if (![magnitude, lng, lat, depthKm, year, mo, dy, hr, mi].every(Number.isFinite)) continue; // header lines
    // Date.UTC rolls over the catalogs' occasional 24:00 or 60-second entries into valid instants.
    const ms = Date.UTC(year, Math.max(1, mo) - 1, Math.max(1, dy), hr, mi, Number.isFinite(sec) ? Math.floor(sec) : 0);
    const time = new Date(ms).toISOString().replace('.000Z', 'Z');
    out.push({ id: `${catalog}:${time}`, catalog, magnitude, lat, lng, depthKm, year, time });
  }
  return out;
}

function read(dir: string, rel: string): string {
  const p = path.join(dir, rel);
  if (!fs.existsSync(p)) {
    throw new CatintelError('unavailable', `the backtest needs the public catalog ${rel}, not found under ${dir}; set CATINTEL_SHARED_DATA to the shared data directory (SOURCES.md)`);
  }
  return fs.readFileSync(p, 'utf8').replace(/^\uFEFF/, '');
}

const spanOf = (years: number[]) => ({ first: Math.min(...years), last: Math.max(...years) });

/** Parse and index all four catalogs (about 0.5 s; cached per directory). */
export function loadCatalogs(dir: string, baselineDir?: string): BacktestCatalogs {
  const atlantic = parseNamedStorms(read(dir, INPUTS.hurdatAtlantic), 'atlantic');
  const pacific = parseNamedStorms(read(dir, INPUTS.hurdatPacific), 'pacific');
  const ceus = parseDatedCatalog(read(dir, INPUTS.ceusCatalog), 'ceus');
  const wus = parseDatedCatalog(read(dir, INPUTS.wusCatalog), 'wus');
  return {
    storms: buildStormIndex([...atlantic, ...pacific]),
    quakes: buildQuakeIndex([...ceus, ...wus]),
    radiusScale: ingestRingOptions(baselineDir).hurricaneRadiusScale!(),
    span: {
      atlantic: spanOf(atlantic.map((s) => s.year)),
      pacific: spanOf(pacific.map((s) => s.year)),
      ceus: spanOf(ceus.map((q) => q.year)),
      wus: spanOf(wus.map((q) => q.year)),
    },
  };
}

const cache = new Map<string, BacktestCatalogs>();

export function catalogsFor(dir: string): BacktestCatalogs {
  let hit = cache.get(dir);
  if (!hit) {
    hit = loadCatalogs(dir);
    cache.set(dir, hit);
  }
  return hit;
}
