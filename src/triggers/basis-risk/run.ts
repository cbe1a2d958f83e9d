/**
 * A trigger's basis risk against a book (docs/basis-risk.md): the model package's stochastic catalog read
 * twice, once by the trigger's rule (catalog-values.ts, on the catalog's tracks or ruptures rebuilt from the
 * package's manifest) and once by the loss engine (runBook: the book's keys, Oasis input files and the
 * kernel over the package's footprints), joined event by event (domain/basis-risk.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../../errors.js';
import type { BookLosses } from '../../epcurve/run-book.js';
import type { ModelPackage } from '../../epcurve/model-packages.js';
import { EP_TYPE } from '../../loss/domain/ept.js';
import type { TriggerCriteria } from '../domain/rules.js';
import type { Track } from '../../models/hurricane/domain/track.js';
import { earthquakeSiteValues, hurricaneSiteValues, type CatalogQuakeEvent } from './domain/catalog-values.js';
import type { EventOutcome } from './domain/basis-risk.js';

export interface CatalogRun {
  outcomes: EventOutcome[];
  years: number;
  seed: number;
  events: number;
  model: string;
  run: BookLosses;
}

/** A package's catalog as the trigger rule reads it: hurricane tracks, or earthquake ruptures as points. */
type Catalog = { kind: 'hurricane'; tracks: readonly Track[] } | { kind: 'earthquake'; quakes: CatalogQuakeEvent[] };

/**
 * The last catalog rebuilt, by package, data and (years, seed): a rebuild takes seconds of CPU, and the
 * server answers every basis-risk request of the same package from the same catalog (as the hazard curve
 * keeps its own).
 */
let lastCatalog: { key: string; catalog: Catalog } | null = null;

async function rebuildCatalog(pkg: ModelPackage, dataDir: string, years: number, seed: number): Promise<Catalog> {
  const key = JSON.stringify([pkg.folder, dataDir, years, seed]);
  if (lastCatalog?.key === key) return lastCatalog.catalog;
  let catalog: Catalog;
  if (pkg.folder === 'hurricane') {
    const { buildHurricaneTrackSet } = await import('../../models/hurricane/track-set.js');
    catalog = { kind: 'hurricane', tracks: buildHurricaneTrackSet({ dataDir, years, seed }).tracks };
  } else {
    const [{ loadEarthquakeSources }, { sampleEventSet }] = await Promise.all([
      import('../../models/earthquake/io/load-sources.js'),
      import('../../models/earthquake/package/event-set.js'),
    ]);
    const set = sampleEventSet(loadEarthquakeSources(dataDir), years, seed);
    const quakes = set.events.map((e): CatalogQuakeEvent => {
      const r = e.rupture;
      if (!('planes' in r)) return { eventId: e.eventId, magnitude: r.magnitude, lat: r.lat, lng: r.lng };
      const pts = r.planes.flatMap((p) => p.trace);
      const mid = pts[Math.floor(pts.length / 2)];
      return { eventId: e.eventId, magnitude: r.magnitude, lat: mid[1], lng: mid[0] };
    });
    catalog = { kind: 'earthquake', quakes };
  }
  lastCatalog = { key, catalog };
  return catalog;
}

/**
 * The package's catalog as the trigger reads it: the same (years, seed) the package was built from, over
 * the same shared data. A rebuild that does not give the manifest's event count means other data: refused.
 */
async function siteValues(
  t: TriggerCriteria,
  pkg: ModelPackage,
  info: { years: number; seed: number; events: number },
  dir: string,
  dataDir: string,
  radiusScale: number,
): Promise<Map<number, number | null>> {
  const catalog = await rebuildCatalog(pkg, dataDir, info.years, info.seed);
  const n = catalog.kind === 'hurricane' ? catalog.tracks.length : catalog.quakes.length;
  if (n !== info.events)
    throw new CatintelError(
      'unavailable',
      `the ${pkg.folder} model package in ${dir} holds ${info.events} events, but its catalog rebuilt from ${dataDir} (${info.years} years, seed ${info.seed}) holds ${n}: it was built from other data; rebuild it with \`${pkg.build.command} --years ${info.years} --seed ${info.seed} --from ${dataDir} --out ${dir}\``,
    );
  return catalog.kind === 'hurricane'
    ? hurricaneSiteValues(t, catalog.tracks, radiusScale)
    : earthquakeSiteValues(t, catalog.quakes);
}

export async function catalogOutcomes(o: {
  trigger: TriggerCriteria;
  pkg: ModelPackage;
  location: string;
  account: string;
  modelsDir: string;
  dataDir: string;
  radiusScale: number;
  workDir: string;
  progress?: (message: string) => void;
}): Promise<CatalogRun> {
  const { runBook, packageInfo } = await import('../../epcurve/run-book.js');
  const { dir, info } = packageInfo(o.pkg, o.modelsDir);
  o.progress?.(`${o.pkg.folder}: the trigger on ${info.events} catalog events`);
  const values = await siteValues(o.trigger, o.pkg, info, dir, o.dataDir, o.radiusScale);
  fs.mkdirSync(o.workDir, { recursive: true });
  // Analytical means only: a basis-risk count asks whether an event's loss reaches a level, event by event.
  const run = await runBook({
    location: o.location,
    account: o.account,
    modelsDir: o.modelsDir,
    dataDir: o.dataDir,
    packages: [{ pkg: o.pkg, perils: [...o.pkg.perils] }],
    samples: 0,
    seed: 1,
    workDir: path.join(o.workDir, 'run'),
    progress: o.progress,
  });
  const loss = new Map<number, number>();
  for (let i = 0; i < run.gul.length; i++)
    if (run.gul.summaryId[i] === 1) loss.set(run.gul.eventId[i], run.gul.mean[i]);
  const outcomes: EventOutcome[] = [...values].map(([eventId, value]) => ({
    eventId,
    value,
    loss: loss.get(eventId) ?? 0,
  }));
  return { outcomes, years: info.years, seed: info.seed, events: info.events, model: info.model, run };
}

/** The book's ground-up OEP loss at a return period, from the kernel's records (the EP machinery's own EPCalc 1). */
export async function oepLossAt(run: BookLosses, returnPeriod: number): Promise<number> {
  const { eptTables } = await import('../../loss/domain/ept-tables.js');
  const off = { oep: false, aep: false };
  const { ept } = eptTables(run.gul, run.occurrence, [returnPeriod], {
    oep: true,
    aep: false,
    fullUncertainty: off,
    perSampleMean: off,
    sampleMean: off,
    psept: off,
  });
  const row = ept.find((r) => r.summaryId === 1 && r.epType === EP_TYPE.OEP && r.returnPeriod === returnPeriod);
  return row?.loss ?? 0;
}
