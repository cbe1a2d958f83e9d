/**
 * The expected annual damage ratio of one reference building in every cell of a model package's grid,
 * through the loss engine: a book of reference buildings, one at the centre of each cell, goes through the
 * package's keys lookup, the Oasis input files (`oasis files`) and the kernel's analytical mean per item
 * (src/loss/item-means.ts), exactly the path a one-location book takes through `portfolio ep-curve`. So a
 * one-location book of the reference building anywhere in a cell has that cell's AAL / TIV, up to the
 * sampling error of its EP curve. The scores read these ratios from a table (data/model-damage/) instead
 * of running the engine per request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { Peril } from '../domain/scoring/perils.js';
import { packageInfo } from './run-book.js';
import { oedCodeOf, packageOf, type PackageKeys } from './model-packages.js';
import { MODEL_DAMAGE_PERILS, type ModelDamageGrid, type ModelDamagePeril } from '../domain/scoring/model-damage.js';

export { MODEL_DAMAGE_PERILS };

/** The building every cell's ratio is for: a one-storey wood-frame single-family home, year built unknown, building coverage only. */
export const REFERENCE_BUILDING = {
  OccupancyCode: 1050,
  ConstructionCode: 5050,
  NumberOfStoreys: 1,
  description:
    'one-storey wood-frame single-family home (OED OccupancyCode 1050, ConstructionCode 5050, NumberOfStoreys 1, YearBuilt not given), building coverage only',
} as const;

const TIV = 1_000_000;

/** The package's grid and its keys lookup's rule for a point on a cell edge (hurricane: floor; earthquake: floor of x + 1e-9, the box's north and east edges inside). */
async function gridOf(
  peril: ModelDamagePeril,
): Promise<Pick<ModelDamageGrid, 'south' | 'west' | 'deg' | 'rows' | 'cols' | 'floor_epsilon' | 'edges_inclusive'>> {
  if (peril === 'hurricane_wind') {
    const g = await import('../models/hurricane/domain/footprint/grid.js');
    return {
      south: g.GRID_SOUTH,
      west: g.GRID_WEST,
      deg: g.GRID_DEG,
      rows: g.GRID_ROWS,
      cols: g.GRID_COLS,
      floor_epsilon: 0,
      edges_inclusive: false,
    };
  }
  const g = await import('../models/earthquake/package/grid.js');
  return {
    south: g.GRID_SOUTH,
    west: g.GRID_WEST,
    deg: g.GRID_DEG,
    rows: g.GRID_ROWS,
    cols: g.GRID_COLS,
    floor_epsilon: 1e-9,
    edges_inclusive: true,
  };
}

/** The cells worth a reference building: for hurricane wind those some event reaches (the others are 0), for earthquake every cell (the keys key them all). */
function candidateCells(peril: ModelDamagePeril, dir: string, cells: number): Uint8Array {
  if (peril === 'hurricane_wind') return new Uint8Array(fs.readFileSync(path.join(dir, 'cell_max_intensity_bin.bin')));
  return new Uint8Array(cells).fill(1);
}

export interface CellDamageOptions {
  modelsDir: string;
  peril: ModelDamagePeril;
  workDir: string;
  /** Only the cells whose centre this accepts (a test's neighbourhood); unset: every cell. */
  within?: (lat: number, lng: number) => boolean;
  /** Reference buildings per run of the engine (bounds the footprint held in memory). */
  chunk?: number;
  progress?: (message: string) => void;
}

export async function cellDamageRatios(o: CellDamageOptions): Promise<ModelDamageGrid> {
  const [{ readMeansModel, itemAnnualMeans }, { oasisFiles }] = await Promise.all([
    import('../loss/item-means.js'),
    import('../oasis-files/run.js'),
  ]);
  const pkg = packageOf(o.peril as Peril)!;
  const { dir, info } = packageInfo(pkg, o.modelsDir);
  const g = await gridOf(o.peril);
  const reach = candidateCells(o.peril, dir, g.rows * g.cols);
  const code = oedCodeOf(o.peril as Peril);
  const ratio = new Float64Array(g.rows * g.cols).fill(NaN);
  const cells: number[] = [];
  for (let k = 0; k < g.rows * g.cols; k++) {
    const lat = g.south + (Math.floor(k / g.cols) + 0.5) * g.deg;
    const lng = g.west + ((k % g.cols) + 0.5) * g.deg;
    if (o.within && !o.within(lat, lng)) continue;
    if (reach[k]) cells.push(k);
    else ratio[k] = 0; // no event of the catalog reaches the cell: the model's answer there is no loss
  }
  o.progress?.(`${pkg.folder}: ${cells.length.toLocaleString('en-US')} reference buildings`);
  const model = readMeansModel(dir);
  const vulnerabilities = new Map<string, { id: number; message: string; cells: number }>();
  const caseOf: (string | undefined)[] = new Array(g.rows * g.cols);
  const chunk = o.chunk ?? 50_000;
  fs.mkdirSync(o.workDir, { recursive: true });
  for (let from = 0; from < cells.length; from += chunk) {
    const part = cells.slice(from, from + chunk);
    const work = path.join(o.workDir, `${pkg.folder}-${from}`);
    fs.mkdirSync(work, { recursive: true });
    const location = path.join(work, 'location.csv');
    const rows = part.map((k, i) => {
      const lat = (g.south + (Math.floor(k / g.cols) + 0.5) * g.deg).toFixed(4);
      const lng = (g.west + ((k % g.cols) + 0.5) * g.deg).toFixed(4);
      return `1,REF,${i + 1},${lat},${lng},US,${REFERENCE_BUILDING.OccupancyCode},${REFERENCE_BUILDING.ConstructionCode},${REFERENCE_BUILDING.NumberOfStoreys},${code},${TIV},0,0,0,USD`;
    });
    fs.writeFileSync(
      location,
      [
        'PortNumber,AccNumber,LocNumber,Latitude,Longitude,CountryCode,OccupancyCode,ConstructionCode,NumberOfStoreys,LocPerilsCovered,BuildingTIV,OtherTIV,ContentsTIV,BITIV,LocCurrency',
        ...rows,
      ].join('\n') + '\n',
    );
    const account = path.join(work, 'account.csv');
    fs.writeFileSync(account, 'PortNumber,AccNumber,PolNumber,AccCurrency\n1,REF,1,USD\n');
    const all: PackageKeys = await pkg.keys(dir, location);
    const keys = all.keys.filter((k) => k.perilId === code && k.coverageTypeId === 1);
    const missing = await pkg.missingVulnerabilities(dir, keys);
    if (missing.length)
      throw new Error(
        `the ${pkg.folder} package in ${dir} lacks the reference building's vulnerabilities ${missing.join(', ')}; rebuild it with \`${pkg.build.command}\``,
      );
    // By id and message: one id can stand for several cases (the same HAZUS code level in UBC zones 3 and 4), and the message names the cell's own.
    for (const k of keys as (PackageKeys['keys'][number] & { message?: string })[]) {
      const key = `${k.vulnerabilityId}|${k.message ?? ''}`;
      const v = vulnerabilities.get(key) ?? { id: k.vulnerabilityId, message: k.message ?? '', cells: 0 };
      v.cells++;
      vulnerabilities.set(key, v);
      caseOf[k.areaPerilId - 1] = key;
    }
    const keysFile = path.join(work, 'keys.csv');
    fs.writeFileSync(
      keysFile,
      [
        'LocID,PerilID,CoverageTypeID,AreaPerilID,VulnerabilityID',
        ...keys.map((k) => `${k.locId},${k.perilId},${k.coverageTypeId},${k.areaPerilId},${k.vulnerabilityId}`),
      ].join('\n') + '\n',
    );
    await oasisFiles({ location, account, keys: keysFile, out: path.join(work, 'input') });
    const means = itemAnnualMeans(model, path.join(work, 'input'));
    // One reference building a cell, so an item's areaperil is its cell (areaperil_id = row·cols + col + 1).
    for (let i = 0; i < means.itemId.length; i++) ratio[means.areaperil[i] - 1] = means.aal[i] / means.tiv[i];
    // A cell the keys could not place keeps NaN (none in practice: the candidates are the cells the package reaches).
    fs.rmSync(work, { recursive: true, force: true });
    o.progress?.(
      `${pkg.folder}: ${Math.min(cells.length, from + chunk).toLocaleString('en-US')} of ${cells.length.toLocaleString('en-US')} cells`,
    );
  }
  const manifest = fs.readFileSync(path.join(dir, 'manifest.json'));
  const listed = [...vulnerabilities].sort((a, b) => b[1].cells - a[1].cells || (a[0] < b[0] ? -1 : 1));
  if (listed.length > 254)
    throw new Error(`the reference building keyed to ${listed.length} cases; the table holds at most 254`);
  const indexOf = new Map(listed.map(([key], i) => [key, i]));
  const vulnerabilityIndex = Uint8Array.from(caseOf, (key) => (key === undefined ? 255 : (indexOf.get(key) ?? 255)));
  return {
    peril: o.peril,
    ...g,
    ratio,
    vulnerabilityIndex,
    package: {
      folder: pkg.folder,
      model: info.model,
      years: info.years,
      seed: info.seed,
      events: info.events,
      manifest_sha256: createHash('sha256').update(manifest).digest('hex'),
    },
    reference_building: {
      description: REFERENCE_BUILDING.description,
      vulnerabilities: listed.map(([, v]) => ({ vulnerability_id: v.id, cells: v.cells, message: v.message })),
    },
  };
}
