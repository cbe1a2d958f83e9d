/**
 * A seeded, synthetic US portfolio in the OED 5.0.0 location layout, for tests and the bulk-scoring
 * benchmark:
 *   node dist/scripts/make-us-portfolio.js --rows 500 --seed 42 --out us-portfolio.csv
 *     [--cenpop ../shared/data/exposure/CenPop2020_Mean_CO.txt]
 *
 * Points are drawn around the 2020 Census county centres of population (CenPop2020_Mean_CO.txt), each
 * county chosen with probability proportional to its population, then moved by a Gaussian offset of
 * sigma 0.05 degrees (~5 km): where people live, so a few coastal draws land offshore and are refused,
 * as in a real book. Everything else (occupancy, construction, perils covered, values) is drawn from
 * small fixed menus of valid OED codes. The same seed always gives the same bytes (mulberry32 PRNG, no
 * clock, fixed formatting).
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseCenPop, type PopulationCentre } from '../src/reference-data/census.js';
import { packageRoot } from '../src/lib/package-root.js';
import { mulberry32 } from '../src/lib/random.js';

export const PORTFOLIO_COLUMNS = [
  'PortNumber',
  'AccNumber',
  'LocNumber',
  'LocName',
  'CountryCode',
  'Latitude',
  'Longitude',
  'OccupancyCode',
  'ConstructionCode',
  'YearBuilt',
  'NumberOfStoreys',
  'LocPerilsCovered',
  'BuildingTIV',
  'OtherTIV',
  'ContentsTIV',
  'BITIV',
  'LocCurrency',
  'OEDVersion',
] as const;

export { mulberry32 };

// Valid OED 5.0.0 codes (OccupancyValues / ConstructionValues / PerilsCovered), weighted by repetition.
const OCCUPANCY = ['1050', '1051', '1051', '1051', '1052', '1100', '1101', '1104', '1150'];
const CONSTRUCTION = ['5000', '5050', '5051', '5051', '5100', '5150', '5200', '5350'];
const PERILS_COVERED = ['AA1', 'AA1', 'WW1', 'WW1;QQ1', 'QQ1', 'WTC;WSS', 'XX1', 'OO1', 'BB1', 'WW2;XX1;ZZ1'];

export interface PortfolioOptions {
  rows: number;
  seed: number;
  /** CenPop2020_Mean_CO.txt; default ../shared/data/exposure/ beside the project. */
  cenPopPath?: string;
  /** Multiplies a county's population in the draw (a book heavy in one state); default 1 everywhere. */
  weight?: (centre: PopulationCentre) => number;
}

export function defaultCenPopPath(): string {
  return path.join(
    process.env.CATINTEL_SHARED_DATA ?? path.join(packageRoot(), '..', 'shared', 'data'),
    'exposure',
    'CenPop2020_Mean_CO.txt',
  );
}

/** Yields the CSV text in chunks of up to `chunkRows` rows (the first chunk starts with the header). */
export function* usPortfolioCsv(o: PortfolioOptions, chunkRows = 10_000): Generator<string> {
  const centres = parseCenPop(fs.readFileSync(o.cenPopPath ?? defaultCenPopPath(), 'utf8'));
  const cumulative = new Float64Array(centres.length);
  let total = 0;
  centres.forEach((c, i) => (cumulative[i] = total += o.weight ? c.population * o.weight(c) : c.population));
  const rand = mulberry32(o.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());

  let out = PORTFOLIO_COLUMNS.join(',') + '\n';
  let inChunk = 0;
  for (let i = 0; i < o.rows; i++) {
    const u = rand() * total;
    let lo = 0;
    let hi = centres.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < u) lo = mid + 1;
      else hi = mid;
    }
    const c = centres[lo];
    const lat = c.lat + 0.05 * gauss();
    const lng = c.lng + (0.05 * gauss()) / Math.cos((c.lat * Math.PI) / 180);
    const building = 50_000 * (2 + Math.floor(rand() * 60)); // 100k..3.05M in 50k steps
    const contents = Math.round((building * (0.2 + 0.3 * rand())) / 1000) * 1000;
    const bi = rand() < 0.5 ? 0 : Math.round((building * 0.1) / 1000) * 1000;
    const acc = 1 + Math.floor(i / 50); // 50 locations per account
    out +=
      `P1,A${acc},L${i + 1},Location ${i + 1},US,${lat.toFixed(6)},${lng.toFixed(6)},${pick(OCCUPANCY)},${pick(CONSTRUCTION)},` +
      `${1950 + Math.floor(rand() * 74)},${1 + Math.floor(rand() * 4)},${pick(PERILS_COVERED)},${building},0,${contents},${bi},USD,5.0.0\n`;
    if (++inChunk === chunkRows) {
      yield out;
      out = '';
      inChunk = 0;
    }
  }
  if (out) yield out;
}

export async function writeUsPortfolio(file: string, o: PortfolioOptions): Promise<void> {
  const fd = fs.openSync(file, 'w');
  try {
    for (const chunk of usPortfolioCsv(o)) fs.writeSync(fd, chunk);
  } finally {
    fs.closeSync(fd);
  }
}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const out = arg('out');
  if (!out) {
    process.stderr.write(
      'usage: make-us-portfolio --out FILE.csv [--rows 500] [--seed 42] [--cenpop CenPop2020_Mean_CO.txt]\n',
    );
    process.exitCode = 2;
  } else {
    const rows = Number(arg('rows') ?? 500);
    const seed = Number(arg('seed') ?? 42);
    await writeUsPortfolio(out, { rows, seed, cenPopPath: arg('cenpop') });
    process.stderr.write(`wrote ${rows} locations to ${out} (seed ${seed})\n`);
  }
}
