/**
 * Basis risk over the record (docs/basis-risk.md "Over the record"): the HURDAT2 Atlantic storms of the
 * hurricane model's historical period (1900-2024, as the model's own history: hourly tracks, the record's
 * RMW where it has one) that pass within reach of the trigger or the book, each read by the trigger's rule
 * and, through the hurricane package's own wind and surge footprint of its track, by the loss kernel: the
 * storms written as an event package beside the built package (src/event-loss/event-package.ts, one event
 * per storm), then runBook over it. Storms that reach neither add nothing to either side and are not run.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ModelPackage } from '../../epcurve/model-packages.js';
import type { TriggerCriteria } from '../domain/rules.js';
import { flatKm } from '../domain/site-wind.js';
import { hurricaneSiteValues } from './domain/catalog-values.js';
import type { EventOutcome } from './domain/basis-risk.js';

/** A storm whose centre comes this close to a book location can damage it (the wind footprint's reach; a large storm's 34-kt radius). */
const BOOK_REACH_KM = 300;

/** Up to this many distinct cells, a book's storms are footprinted on its cells alone (below). */
const BOOK_CELLS_LIMIT = 2_000;

export interface HistoryRun {
  outcomes: EventOutcome[];
  /** HURDAT2 id of each outcome's storm, by event id. */
  storms: Map<number, string>;
  firstYear: number;
  lastYear: number;
  years: number;
}

export async function historyOutcomes(o: {
  trigger: TriggerCriteria;
  pkg: ModelPackage;
  packageDir: string;
  sites: readonly { lat: number; lng: number }[];
  location: string;
  account: string;
  dataDir: string;
  radiusScale: number;
  workDir: string;
  progress?: (message: string) => void;
}): Promise<HistoryRun> {
  const [
    { readTrackSetInputs },
    { historicalTracks, HISTORICAL_PERIOD },
    { landGrid },
    { stormFootprint, footprintCellsOf },
    { PACKAGE_INTENSITY_BIN_COUNT },
    { GRID_CELLS, GRID_COLS, cellOf },
    { CELL_MAX_BIN_FILE, CELL_MAX_SURGE_BIN_FILE },
    { writeEventPackage },
    { runBook },
  ] = await Promise.all([
    import('../../models/hurricane/track-set.js'),
    import('../../models/hurricane/domain/track-set/build.js'),
    import('../../models/hurricane/land-grid.js'),
    import('../../models/hurricane/package/storm-footprint.js'),
    import('../../models/hurricane/domain/surge/surge-bins.js'),
    import('../../models/hurricane/domain/footprint/grid.js'),
    import('../../models/hurricane/package/package-files.js'),
    import('../../event-loss/event-package.js'),
    import('../../epcurve/run-book.js'),
  ]);
  const t = o.trigger;
  const near = (lat: number, lng: number) =>
    flatKm(t.lat, t.lng, lat, lng) <= t.radius_km ||
    o.sites.some((s) => flatKm(s.lat, s.lng, lat, lng) <= BOOK_REACH_KM);
  const all = historicalTracks(readTrackSetInputs(o.dataDir));
  const tracks = all
    .filter((tr) => tr.fixes.some((f) => near(f.lat, f.lng)))
    .map((tr, i) => ({ ...tr, eventId: i + 1 }));
  o.progress?.(`the record: ${tracks.length} of ${all.length} storms reach the trigger or the book`);
  const grid = landGrid();
  const maxBin = new Uint8Array(GRID_CELLS);
  const maxSurgeBin = new Uint8Array(GRID_CELLS);
  // Only the book's cells are read (the kernel reads the footprint on its items' areaperils, the keys lookup
  // the reach on its locations' cells; the trigger reads the tracks): a small book's storms are footprinted
  // there alone, the same rows on those cells as over the whole grid. A book on more cells than
  // BOOK_CELLS_LIMIT is footprinted over the whole grid, where testing each step against each cell would cost more.
  const bookCells = new Set<number>();
  for (const s of o.sites) {
    // The location file holds String(lat), which the keys lookup reads back as the same number: the same cell.
    const cell = cellOf(s.lat, s.lng);
    if (cell) bookCells.add(cell.row * GRID_COLS + cell.col);
  }
  const only = bookCells.size <= BOOK_CELLS_LIMIT ? footprintCellsOf(grid, bookCells) : undefined;
  const footprints = tracks.map((tr) => ({
    rows: stormFootprint(tr, grid, { wind: maxBin, surge: maxSurgeBin }, only).rows,
  }));
  // The keys lookup places a location only on cells the package reaches: raised to what these storms bring.
  const raised = (file: string, storms: Uint8Array) => {
    const out = Buffer.from(fs.readFileSync(path.join(o.packageDir, file)));
    for (let k = 0; k < Math.min(out.length, storms.length); k++) if (storms[k] > out[k]) out[k] = storms[k];
    return out;
  };
  const modelsDir = path.join(o.workDir, 'history-models');
  fs.mkdirSync(modelsDir, { recursive: true });
  writeEventPackage({
    packageDir: o.packageDir,
    modelsDir,
    folder: o.pkg.folder,
    intensityBins: PACKAGE_INTENSITY_BIN_COUNT,
    intensityUncertainty: false,
    footprints,
    files: {
      [CELL_MAX_BIN_FILE]: raised(CELL_MAX_BIN_FILE, maxBin),
      [CELL_MAX_SURGE_BIN_FILE]: raised(CELL_MAX_SURGE_BIN_FILE, maxSurgeBin),
    },
    manifest: { model: 'catintel-hurricane (HURDAT2 storms)', storms: tracks.map((tr) => tr.parentId) },
    seed: 1,
  });
  const values = hurricaneSiteValues(t, tracks, o.radiusScale);
  const run = await runBook({
    location: o.location,
    account: o.account,
    modelsDir,
    dataDir: o.dataDir,
    packages: [{ pkg: o.pkg, perils: [...o.pkg.perils] }],
    samples: 0,
    seed: 1,
    workDir: path.join(o.workDir, 'history-run'),
    progress: o.progress,
  });
  const loss = new Map<number, number>();
  for (let i = 0; i < run.gul.length; i++)
    if (run.gul.summaryId[i] === 1) loss.set(run.gul.eventId[i], run.gul.mean[i]);
  const years = HISTORICAL_PERIOD.lastYear - HISTORICAL_PERIOD.firstYear + 1;
  return {
    outcomes: tracks.map((tr) => ({
      eventId: tr.eventId,
      value: values.get(tr.eventId) ?? null,
      loss: loss.get(tr.eventId) ?? 0,
    })),
    storms: new Map(tracks.map((tr) => [tr.eventId, tr.parentId])),
    firstYear: HISTORICAL_PERIOD.firstYear,
    lastYear: HISTORICAL_PERIOD.lastYear,
    years,
  };
}
