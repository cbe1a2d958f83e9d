/**
 * A book's loss from an event that is happening (docs/event-loss.md): the event's footprints (footprints
 * of a hurricane's observed track and forecast ensemble, or of an earthquake's ShakeMap or ground motion)
 * written as an event package beside the built model package, then the one loss engine (runBook: keys,
 * Oasis input files, the kernel with the package's vulnerabilities) over it, and the band over the
 * ensemble's members and the damage samples, ground-up and insured, by peril.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Peril } from '../domain/scoring/perils.js';
import type { BookLosses, PreparedPackage } from '../epcurve/run-book.js';
import type { KernelPool } from '../loss/kernel-pool.js';
import { oedCodeOf, type ModelPackage } from '../epcurve/model-packages.js';
import { writeEventPackage } from './event-package.js';
import { eventMean, lossBand, outcomesOf, type LossBand } from './loss-band.js';

export interface EventFootprints {
  /** The built package the event runs on, and the perils of it the event brings. */
  pkg: ModelPackage;
  perils: Peril[];
  intensityBins: number;
  intensityUncertainty: boolean;
  /** Event 1..n's rows; `bandEvents` the ids the band is over, `observedEvent` the observed-so-far one if any. */
  footprints: Buffer[];
  bandEvents: number[];
  observedEvent: number | null;
  /** The intensity bin that means no damage (written so a cell's probabilities sum to 1), if the package has one. */
  noDamageBin: number | null;
  /** Files of the event package that replace the built package's (the keys lookup's reach, raised to the event's). */
  reachFiles?: (packageDir: string) => Record<string, Buffer>;
  /** Whether those files reach a cell the built package's do not: the package's keys are then not the event package's. */
  reachesBeyondPackage?: (packageDir: string) => boolean;
  manifest: Record<string, unknown>;
}

export interface EventLossOptions {
  location: string;
  /** Without one, the book has no financial terms: its insured loss is its ground-up loss (runBook). */
  account?: string;
  modelsDir: string;
  dataDir: string;
  samples: number;
  seed: number;
  workDir: string;
  progress?: (message: string) => void;
}

export interface PerspectiveLoss {
  band: LossBand;
  observedSoFar: number | null;
  byPeril: Record<string, { band: LossBand; observedSoFar: number | null }>;
}

export interface EventLossResult {
  gul: PerspectiveLoss;
  il: PerspectiveLoss;
  locationsKeyed: number;
  locationsInFootprint: number;
  tivInFootprint: number;
  tivInFootprintByPeril: Record<string, number>;
  run: BookLosses;
}

/** Areaperils with a damaging row in any of the band's footprints. */
function footprintAreaperils(f: EventFootprints): Set<number> {
  const out = new Set<number>();
  for (const e of f.bandEvents) {
    const rows = f.footprints[e - 1];
    for (let at = 0; at + 12 <= rows.length; at += 12) {
      if (f.noDamageBin !== null && rows.readInt32LE(at + 4) === f.noDamageBin) continue;
      out.add(rows.readUInt32LE(at));
    }
  }
  return out;
}

/** A book's run prepared while the event's footprints are made: its keys and input tables, and the kernel's threads. */
export interface EventPreparation {
  book: PreparedPackage;
  /** Started once the keys are known, reading the package's damage side meanwhile; closed by the caller. */
  pool?: KernelPool;
}

/**
 * The book's run before its kernel, on the built package (runEventLoss's `prepared`), for an event of
 * `events` footprints. The kernel's threads start as soon as the keys tell how large the run is.
 */
export async function prepareEventLoss(
  pkg: ModelPackage,
  perils: Peril[],
  events: number,
  o: EventLossOptions,
): Promise<EventPreparation> {
  const [{ packageInfo, preparePackage, bookWork }, { KernelPool }, { threadsForAtMost }] = await Promise.all([
    import('../epcurve/run-book.js'),
    import('../loss/kernel-pool.js'),
    import('../loss/kernel-threads.js'),
  ]);
  const dir = packageInfo(pkg, o.modelsDir).dir;
  let pool: KernelPool | undefined;
  try {
    const book = await preparePackage(pkg, perils, dir, { ...o, workDir: runDir(o), readInput: true }, (keys) => {
      const threads = threadsForAtMost(events, bookWork(events, keys.length, o.samples));
      if (threads < 2) return;
      pool = new KernelPool(threads - 1);
      void pool.damageModel(dir);
    });
    return { book, pool };
  } catch (err) {
    pool?.close();
    throw err;
  }
}

const runDir = (o: EventLossOptions) => path.join(o.workDir, 'run');

/**
 * The book's loss from the event's footprints. `prepared` (prepareEventLoss) is used unless the event
 * reaches cells the package does not, where the keys must be made again on the event package (its
 * threads are used either way).
 */
export async function runEventLoss(
  f: EventFootprints,
  o: EventLossOptions,
  prepared?: Promise<EventPreparation>,
): Promise<EventLossResult> {
  const [{ runBook, packageInfo }, { readCsvColumns }, { locationIds }] = await Promise.all([
    import('../epcurve/run-book.js'),
    import('../oasis-files/read-csv-columns.js'),
    import('../oasis-files/domain/location-ids.js'),
  ]);
  const built = packageInfo(f.pkg, o.modelsDir);
  const eventModels = path.join(o.workDir, 'event-models');
  fs.mkdirSync(eventModels, { recursive: true });
  o.progress?.(`${f.pkg.folder}: event package of ${f.footprints.length} footprints`);
  const eventDir = writeEventPackage({
    packageDir: built.dir,
    modelsDir: eventModels,
    folder: f.pkg.folder,
    intensityBins: f.intensityBins,
    intensityUncertainty: f.intensityUncertainty,
    footprints: f.footprints.map((rows) => ({ rows })),
    files: f.reachFiles?.(built.dir),
    manifest: {
      ...f.manifest,
      model: `${built.info.model} (event footprints)`,
      package_years: built.info.years,
      package_seed: built.info.seed,
    },
    seed: o.seed,
  });
  const made = prepared && (await prepared);
  const run = await runBook({
    location: o.location,
    account: o.account,
    modelsDir: eventModels,
    dataDir: o.dataDir,
    packages: [{ pkg: f.pkg, perils: f.perils }],
    samples: o.samples,
    seed: o.seed,
    workDir: runDir(o),
    progress: o.progress,
    keepKeys: true,
    prepared: made && !f.reachesBeyondPackage?.(built.dir) ? [made.book] : undefined,
    pool: made?.pool,
  });

  // TIV in the footprint: the locations some key of which lands on a cell the band's footprints damage
  // (the keys the run made on the event package: a lookup of a large book costs seconds, made once).
  const areaperils = footprintAreaperils(f);
  const keys = run.packages[0]?.keys ?? (await f.pkg.keys(eventDir, o.location));
  const tivOf = new Map<number, number>();
  const TIVS = ['BuildingTIV', 'OtherTIV', 'ContentsTIV', 'BITIV'];
  const t = readCsvColumns(o.location, ['PortNumber', 'AccNumber', 'LocNumber', ...TIVS], '--oed-location');
  const col = (name: string) => t.cols.get(name) ?? [];
  const locIds = locationIds(col('PortNumber'), col('AccNumber'), col('LocNumber'));
  const tivCols = TIVS.map(col);
  for (let i = 0; i < t.rows; i++)
    tivOf.set(
      locIds[i],
      tivCols.reduce((s, c) => s + (Number(c[i]) || 0), 0),
    );
  const inFootprint = new Set<number>();
  const byPeril: Record<string, Set<number>> = Object.fromEntries(f.perils.map((p) => [p, new Set<number>()]));
  // Each OED peril code's set: the first of the event's perils with that code, looked up once per code.
  const setOfCode = new Map<string, Set<number>>();
  for (const p of [...f.perils].reverse()) setOfCode.set(oedCodeOf(p), byPeril[p]);
  for (const k of keys.keys) {
    if (!areaperils.has(k.areaPerilId)) continue;
    inFootprint.add(k.locId);
    setOfCode.get(k.perilId)?.add(k.locId);
  }
  const sumTiv = (ids: Set<number>) => [...ids].reduce((s, id) => s + (tivOf.get(id) ?? 0), 0);

  const pkgRun = run.packages[0];
  const perspective = (which: 'gul' | 'il'): PerspectiveLoss => {
    const observed = (r: BookLosses['gul']) => (f.observedEvent === null ? null : eventMean(r, f.observedEvent));
    const per: PerspectiveLoss['byPeril'] = {};
    for (const p of f.perils) {
      const rec = pkgRun?.recordsByPeril[p]?.[which];
      per[p] = rec
        ? { band: lossBand(outcomesOf(rec, f.bandEvents)), observedSoFar: observed(rec) }
        : { band: { mean: 0, p10: 0, p50: 0, p90: 0 }, observedSoFar: f.observedEvent === null ? null : 0 };
    }
    return { band: lossBand(outcomesOf(run[which], f.bandEvents)), observedSoFar: observed(run[which]), byPeril: per };
  };
  return {
    gul: perspective('gul'),
    il: perspective('il'),
    locationsKeyed: run.locationsKeyed,
    locationsInFootprint: inFootprint.size,
    tivInFootprint: sumTiv(inFootprint),
    tivInFootprintByPeril: Object.fromEntries(Object.entries(byPeril).map(([p, ids]) => [p, sumTiv(ids)])),
    run,
  };
}
