/**
 * The model packages an EP curve runs on, by peril: the one place a new model is added (one entry each).
 * A peril with an entry here is modelled: its losses come from the package's keys lookup, the Oasis input
 * files made from the book's OED and the loss kernel. A peril without one is listed as not modelled, with
 * its reason, and adds nothing: no peril's loss is ever estimated another way.
 *
 * Each package lives in its own folder of the models directory (`models/<folder>` under the project, or
 * the folder CATINTEL_MODELS / --models names) and is built by the command in `build`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Peril } from '../domain/scoring/perils.js';
import { OED_CODE } from '../oed/perils.js';

/** A package's keys for a book: one row a (location, peril, coverage), and the locations it cannot place with the reason. */
export interface PackageKeys {
  keys: { locId: number; perilId: string; coverageTypeId: number; areaPerilId: number; vulnerabilityId: number }[];
  errors: { locId: number; perilId: string; message: string }[];
}

export interface ModelPackage {
  /** Its folder under the models directory. */
  folder: string;
  /** The catintel perils it models (its keys carry each one's OED code: oed/perils.ts). */
  perils: readonly Peril[];
  /** The command that builds it into `<models>/<folder>` (shown when it is missing), and about how long that takes. */
  build: { command: string; takes: string };
  /** A file every built package holds: the test that a folder is this package. */
  marker: string;
  /** The keys lookup on an OED location file. */
  keys(modelDir: string, locationFile: string): Promise<PackageKeys>;
  /** vulnerability_ids the keys name that the package lacks (a book the package was not built for). */
  missingVulnerabilities(modelDir: string, keys: PackageKeys['keys']): Promise<number[]>;
  /**
   * Writes the vulnerability.csv of `ids` (same damage bins as the package) into `outDir` from the shared
   * public data directory; its path.
   */
  writeVulnerabilities(dataDir: string, ids: number[], outDir: string): Promise<string>;
}

const hurricane: ModelPackage = {
  folder: 'hurricane',
  // Wind and surge of one storm are in the same events: run together, they add up in one occurrence.
  perils: ['hurricane_wind', 'storm_surge'],
  build: {
    command: 'catintel model build hurricane',
    takes: 'about 6 minutes for its default 1,000 years; --years 100 takes under a minute',
  },
  marker: 'cell_max_intensity_bin.bin',
  async keys(modelDir, locationFile) {
    const { bookKeys } = await import('../models/hurricane/package/book-keys.js');
    return bookKeys(modelDir, locationFile);
  },
  async missingVulnerabilities(modelDir, keys) {
    const { missingVulnerabilities } = await import('../models/hurricane/package/book-keys.js');
    return missingVulnerabilities(modelDir, keys as Parameters<typeof missingVulnerabilities>[1]);
  },
  async writeVulnerabilities(dataDir, ids, outDir) {
    const [{ writeHurricaneVulnerability }, { HAZUS_HURRICANE_DIR }] = await Promise.all([
      import('../models/hurricane/io/write-vulnerability.js'),
      import('../models/hurricane/package/build.js'),
    ]);
    const hazus = path.join(dataDir, HAZUS_HURRICANE_DIR);
    if (!fs.existsSync(hazus)) throw new Error(`no HAZUS hurricane data at ${hazus}`);
    fs.mkdirSync(outDir, { recursive: true });
    writeHurricaneVulnerability(hazus, outDir, ids, { gustSpread: true });
    return path.join(outDir, 'vulnerability.csv');
  },
};

const earthquake: ModelPackage = {
  folder: 'earthquake',
  perils: ['earthquake'],
  build: {
    command: 'catintel model build earthquake',
    takes: 'about a minute for its default 1,000 years; --years 100 takes about 15 s',
  },
  marker: 'cell_seismic_zone.bin',
  async keys(modelDir, locationFile) {
    const { bookKeys } = await import('../models/earthquake/package/book-keys.js');
    return bookKeys(modelDir, locationFile);
  },
  async missingVulnerabilities(modelDir, keys) {
    const { missingVulnerabilities } = await import('../models/earthquake/package/book-keys.js');
    return missingVulnerabilities(modelDir, keys as Parameters<typeof missingVulnerabilities>[1]);
  },
  async writeVulnerabilities(dataDir, ids, outDir) {
    const [{ writeEarthquakeVulnerability }, { HAZUS_EARTHQUAKE_DIR }] = await Promise.all([
      import('../models/earthquake/io/write-vulnerability.js'),
      import('../models/earthquake/package/build.js'),
    ]);
    const hazus = path.join(dataDir, HAZUS_EARTHQUAKE_DIR);
    if (!fs.existsSync(hazus)) throw new Error(`no HAZUS earthquake data at ${hazus}`);
    fs.mkdirSync(outDir, { recursive: true });
    writeEarthquakeVulnerability(hazus, outDir, ids);
    return path.join(outDir, 'vulnerability.csv');
  },
};

/** Every model package, in the order their losses are combined. */
export const MODEL_PACKAGES: readonly ModelPackage[] = [hurricane, earthquake];

/** Why each peril without a package is not modelled. */
export const NOT_MODELLED_REASON: Record<Peril, string> = {
  hurricane_wind: 'no model package',
  storm_surge: 'no model package',
  earthquake: 'no model package',
  tornado: 'no tornado model package: tornado losses are not computed',
  wildfire: 'no wildfire model package: wildfire losses are not computed',
  riverine_flood: 'no flood model package: riverine flood losses are not computed',
  winter_storm: 'no winter storm model package: winter storm losses are not computed',
  extreme_heat: 'extreme heat damages no buildings: no loss to model',
  drought: 'drought damages no buildings: no loss to model',
};

/** The package that models a peril, if any. */
export function packageOf(peril: Peril): ModelPackage | undefined {
  return MODEL_PACKAGES.find((m) => m.perils.includes(peril));
}

/** The OED peril code of a modelled peril (the PerilID of its keys). */
export function oedCodeOf(peril: Peril): string {
  const code = OED_CODE[peril];
  if (!code) throw new Error(`${peril} has no OED peril code`);
  return code;
}
