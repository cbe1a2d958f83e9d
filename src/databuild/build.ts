/**
 * `catintel data build [--from DIR]`: build the hazard baseline (data/baseline/hazard-grid.bin and
 * manifest.json) from the public catalogs in the shared data directory. The same inputs always give the
 * same bytes: fixed iteration orders, 16-bit quantised channels, rounded header numbers, and no clock —
 * `ingested_at` is the newest input vintage (inputs.ts). Method: docs/scoring.md; layout:
 * docs/data-baseline.md.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseHazardGrid } from '../domain/scoring/grid.js';
import { parseCenPop } from '../reference-data/census.js';
import { buildCoverage } from './coverage.js';
import { loadCountyTable } from '../reference-data/counties.js';
import { encodeGrid, type EncodeInput } from './encode.js';
import { computeHazards } from './hazards.js';
import { DATA_VINTAGE, Inputs } from '../reference-data/inputs.js';
import { GRID_FILE, MANIFEST_FILE } from '../reference-data/load-baseline.js';
import { populationPercentiles } from './percentiles.js';

export const DATA_VERSION = '2025.12';
export const MODEL_VERSION = 'catintel-hazard-1.2.0';

export interface BuildOptions {
  fromDir: string;
  outDir: string;
  log?: (message: string) => void;
}

export interface BuildResult {
  gridPath: string;
  manifestPath: string;
  gridBytes: number;
  cells: number;
  channels: number;
}

export async function buildBaseline(opts: BuildOptions): Promise<BuildResult> {
  const log = opts.log ?? (() => {});
  const inputs = new Inputs(opts.fromDir);
  log('coverage: rasterising county boundaries');
  const counties = loadCountyTable();
  const cov = buildCoverage(counties);
  const centres = parseCenPop(inputs.text('cenPop'));
  const popByFips = new Map(centres.map((c) => [c.fips, c.population]));

  const hz = await computeHazards(inputs, cov, log);

  const base: EncodeInput = {
    dataVersion: DATA_VERSION,
    modelVersion: MODEL_VERSION,
    ingestedAt: DATA_VINTAGE,
    index: cov.index,
    mask: cov.mask,
    cellCounty: Uint16Array.from(cov.cells, (c) => c.county),
    counties: {
      fips: counties.fips,
      population: counties.fips.map((f) => popByFips.get(f) ?? null),
      areaKm2: counties.areaKm2,
    },
    channels: hz.channels,
    params: hz.params,
    percentiles: {},
  };
  log('percentiles: scoring county population centres');
  const draft = parseHazardGrid(encodeGrid(base));
  const bytes = encodeGrid({ ...base, percentiles: populationPercentiles(draft, centres) });

  fs.mkdirSync(opts.outDir, { recursive: true });
  const gridPath = path.join(opts.outDir, GRID_FILE);
  fs.writeFileSync(gridPath, bytes);
  const manifest = {
    data_version: DATA_VERSION,
    model_version: MODEL_VERSION,
    ingested_at: DATA_VINTAGE,
    grid: {
      file: GRID_FILE,
      bytes: bytes.byteLength,
      sha256: sha256(bytes),
      cells: cov.cells.length,
      channels: hz.channels.map((c) => c.name),
    },
    params: Object.fromEntries(
      Object.entries(hz.params)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => [k, Number(v.toPrecision(6))]),
    ),
    stats: Object.fromEntries(Object.entries(hz.stats).sort(([a], [b]) => a.localeCompare(b))),
    cleaning: { wildfire: hz.wildfireCleaning },
    inputs: inputs.fingerprints(),
    method: 'docs/scoring.md',
    layout: 'docs/data-baseline.md',
  };
  const manifestPath = path.join(opts.outDir, MANIFEST_FILE);
  fs.writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n');
  return { gridPath, manifestPath, gridBytes: bytes.byteLength, cells: cov.cells.length, channels: hz.channels.length };
}

function sha256(b: Uint8Array): string {
  return createHash('sha256').update(b).digest('hex');
}
