/**
 * `catintel model build hurricane|earthquake [--years N] [--seed S] [--from DIR] [--oed-location L.csv] --out DIR`:
 * the hurricane model (docs/hurricane-model.md, "The model package") or the earthquake model
 * (docs/earthquake-model.md, "Model package") as an Oasis model_data directory that
 * `catintel oasis run --model DIR` and oasislmf 2.5.8 both run. CLI only and storeless; the builders are
 * imported lazily (they read HURDAT2, the NSHM sources, the land grid and the HAZUS files). A package built
 * before from the same code, data and options is copied from the cache instead (src/models/package-cache).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../errors.js';
import { catintelCacheDir } from '../lib/cache-dir.js';
import { packageRoot } from '../lib/package-root.js';
import { existingFile } from './oasis-files.js';
import { int, required, str } from './params.js';

import type { Context } from '../context.js';
import { defineHandler } from './types.js';
import type { BuildPackageResult } from '../models/hurricane/package/build.js';
import { GRID_CELLS } from '../models/hurricane/domain/footprint/grid.js';
import { PACKAGE_MODELS, type PackageModel } from '../models/package-kind.js';
import type { CachedBuildResult } from '../models/package-cache/cached-build.js';

/** Where a built package goes unless --out says otherwise: models/<model> under the project folder (gitignored). */
export function defaultPackageDir(model: PackageModel = 'hurricane'): string {
  return path.join(packageRoot(), 'models', model);
}

export interface ModelBuildInput {
  model: PackageModel;
  years: number;
  seed: number;
  from: string;
  out: string;
  location?: string;
  /** false (--no-cache): build anew, and leave the cache as it is. */
  cache: boolean;
}

export const DEFAULT_PACKAGE_YEARS = 1000;
/**
 * The earthquake package's default: 1,000 years build in under a minute (docs/earthquake-model.md,
 * "Model package", has the measured times and sizes); 10,000 years for a fuller tail.
 */
export const DEFAULT_EARTHQUAKE_PACKAGE_YEARS = 1000;
export const DEFAULT_YEARS: Record<PackageModel, number> = {
  hurricane: DEFAULT_PACKAGE_YEARS,
  earthquake: DEFAULT_EARTHQUAKE_PACKAGE_YEARS,
};

export const modelBuild = defineHandler<ModelBuildInput, CachedBuildResult>({
  name: 'model.build',
  summary:
    "Build catintel's hurricane or earthquake model as an Oasis model package (events, occurrence, footprint, vulnerability, keys lookup data)",
  storeless: true,
  cli: {
    command: ['model', 'build'],
    args: ['model'],
    options: [
      {
        flags: '--years <n>',
        description: `simulated years of the event set (default ${DEFAULT_PACKAGE_YEARS} for hurricane, about 5.5 storms a year; ${DEFAULT_EARTHQUAKE_PACKAGE_YEARS} for earthquake, about 7.7 ruptures of M 5 or more a year; build time and size in proportion)`,
      },
      {
        flags: '--seed <n>',
        description: 'random seed of the event set (default 1): same seed and years, same package',
      },
      {
        flags: '--from <dir>',
        description:
          'the shared public data directory holding HURDAT2, the NSHM sources and the HAZUS data (default ../shared/data beside the package, env CATINTEL_SHARED_DATA)',
      },
      {
        flags: '--oed-location <file>',
        description:
          "an OED location file whose vulnerabilities the package should hold beside its default set (so oasislmf runs that book's keys unchanged)",
      },
      {
        flags: '--out <dir>',
        description:
          'the model_data directory to write (default models/<model> under the project folder, not committed; created if missing; a package already there is replaced whole)',
      },
      {
        flags: '--no-cache',
        description:
          'build anew, neither reusing nor storing a package in the cache (by default a package built before from the same code, data and options is copied from $CATINTEL_CACHE/models, default ~/.cache/catintel)',
      },
    ],
    examples: [
      'catintel model build hurricane --years 1000 --out models/hurricane',
      'catintel model build hurricane --years 10000 --seed 7 --out /data/hurricane-10k --json',
      'catintel model build earthquake --years 2000 --out models/earthquake',
    ],
    paths: ['from', 'oed_location', 'out'],
  },
  parse(raw) {
    const model = required(raw, 'model');
    if (!(PACKAGE_MODELS as readonly string[]).includes(model))
      throw new CatintelError(
        'invalid_parameter',
        `model ${model} cannot be built; the models are ${PACKAGE_MODELS.join(' and ')} (catintel model build earthquake --out DIR)`,
        { errors: [{ field: 'model', message: PACKAGE_MODELS.join(' or ') }] },
      );
    const kind = model as PackageModel;
    const outRaw = str(raw, 'out') ?? defaultPackageDir(kind);
    return {
      model: kind,
      years: int(raw, 'years', { min: 1, max: 100000 }, DEFAULT_YEARS[kind]),
      seed: int(raw, 'seed', { min: 0, max: 2 ** 31 - 1 }, 1),
      from: str(raw, 'from') ?? '',
      out: path.resolve(outRaw),
      location: existingFile(raw, 'oed_location', 'an OED location CSV', false),
      cache: raw.cache !== false,
    };
  },
  async run(ctx, input) {
    const from = path.resolve(
      input.from || ctx.config.env?.CATINTEL_SHARED_DATA || path.join(packageRoot(), '..', 'shared', 'data'),
    );
    if (!fs.statSync(from, { throwIfNoEntry: false })?.isDirectory())
      throw new CatintelError(
        'invalid_input',
        `--from ${from} is not a directory; give the shared public data directory (the one holding hazard_history/ and vulnerability/)`,
      );
    const { cachedBuild } = await import('../models/package-cache/cached-build.js');
    const result = await cachedBuild({
      model: input.model,
      years: input.years,
      seed: input.seed,
      dataDir: from,
      out: input.out,
      location: input.location,
      cacheDir: input.cache ? catintelCacheDir(ctx.config.env) : undefined,
      build: () =>
        input.model === 'earthquake' ? buildEarthquake(ctx, input, from) : buildHurricane(ctx, input, from),
      progress: (message) => ctx.progress({ task: 'model build', done: 0, message }),
    });
    return { body: result, notes: notesOf(input.model, result) };
  },
});

/** The package in a line, and where it came from when it was not built here and now. */
function notesOf(model: PackageModel, r: CachedBuildResult): string[] {
  const hit = r.cache === 'hit';
  const took = hit ? '' : `; ${r.seconds.total.toFixed(1)} s`;
  const bytes = r.files.reduce((n, f) => n + f.bytes, 0);
  const line =
    model === 'earthquake'
      ? `${r.events} ruptures over ${r.years} years, ${r.footprintRows} footprint rows; ${r.vulnerabilities} vulnerabilities; ${(bytes / 1e6).toFixed(0)} MB${took}`
      : `${r.events} events over ${r.years} years, ${r.footprintEvents} with a footprint on US land; ${r.vulnerabilities} vulnerabilities${took}`;
  return [
    ...(hit ? [`reused the package built at ${r.builtAt} (cache ${r.cacheEntry}); --no-cache to build anew`] : []),
    line,
    ...(r.cacheWarning ? [`warning: ${r.cacheWarning}; the build stands`] : []),
  ];
}

async function buildHurricane(ctx: Context, input: ModelBuildInput, from: string): Promise<BuildPackageResult> {
  const { buildHurricanePackage } = await import('../models/hurricane/package/build.js');
  let extra: number[] = [];
  if (input.location) {
    const { hurricaneKeys } = await import('../models/hurricane/package/keys.js');
    const { bookRows } = await import('../models/hurricane/package/book-keys.js');
    // Every cell counts here (the catalog is not built yet): the book's vulnerabilities, wherever it stands.
    extra = [
      ...new Set(
        hurricaneKeys(bookRows(input.location), {
          wind: new Uint8Array(GRID_CELLS).fill(1),
          surge: new Uint8Array(GRID_CELLS).fill(1),
        }).keys.map((k) => k.vulnerabilityId),
      ),
    ];
  }
  try {
    return await buildHurricanePackage(builderOptions(ctx, input, from, extra));
  } catch (err) {
    throw missingInputAsUsageError(err, /not found at/);
  }
}

async function buildEarthquake(ctx: Context, input: ModelBuildInput, from: string): Promise<BuildPackageResult> {
  const { buildEarthquakePackage } = await import('../models/earthquake/package/build.js');
  const { bookVulnerabilityIds } = await import('../models/earthquake/package/book-keys.js');
  const extra = input.location ? bookVulnerabilityIds(input.location) : [];
  try {
    return await buildEarthquakePackage(builderOptions(ctx, input, from, extra));
  } catch (err) {
    throw missingInputAsUsageError(err, /not found at|input missing/);
  }
}

/** What both builders are given: the data, the event set's length and seed, the folder, the book's extra vulnerabilities. */
function builderOptions(ctx: Context, input: ModelBuildInput, from: string, extraVulnerabilityIds: number[]) {
  return {
    dataDir: from,
    years: input.years,
    seed: input.seed,
    out: input.out,
    extraVulnerabilityIds,
    progress: (done: number, total: number, message: string) =>
      ctx.progress({ task: 'model build', done, total, message }),
  };
}

/** A builder's missing-input failure (its message matches `missing`) as the one-line usage error it is. */
function missingInputAsUsageError(err: unknown, missing: RegExp): unknown {
  if (err instanceof Error && !(err instanceof CatintelError) && missing.test(err.message))
    return new CatintelError('invalid_input', err.message.split('\n')[0], { cause: err });
  return err;
}
