/**
 * The footprints of a stored event, by its kind: a hurricane's observed track and forecast ensemble
 * (hurricane-ensemble.ts, run through the hurricane package's own wind and surge footprint), an
 * earthquake's ShakeMap grid or the package's ground motion from its origin (earthquake-footprints.ts).
 * Each names the product version it was made from.
 */
import fs from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import path from 'node:path';
import { CatintelError } from '../errors.js';
import type { Peril } from '../domain/scoring/perils.js';
import type { EventRow, ObservationRow } from '../store/events-read.js';
import type { PgaGrid } from '../domain/pga-grid.js';
import { packageOf } from '../epcurve/model-packages.js';
import { WINDING_TYPES } from '../sources/nhc-common.js';
import type { EventFootprints } from './run-event-loss.js';
import type { ObservedFix } from './hurricane-ensemble.js';
import { forecastPointsOf } from './forecast-points.js';
import { eventDetails } from '../domain/event-details.js';
import { productVersionOf, stormProductVersion } from '../domain/product-version.js';

export interface FootprintSource {
  /** What the footprints were made from: the product and its version. */
  product: string;
  version: string;
  issued_at: string | null;
  kind: 'observed_track_and_forecast_ensemble' | 'shakemap' | 'ground_motion_model';
  members: number;
  forecast?: 'nhc' | 'persistence' | 'none';
  forecast_hours?: number;
}

/** The storm's fixes from its observations: wind and position, with the pressure and RMW of the same instant. */
export function fixesOf(obs: ObservationRow[]): ObservedFix[] {
  const at = new Map<string, ObservedFix>();
  for (const o of obs)
    if (o.kind === 'wind_speed_kt' && o.lat !== null && o.lng !== null)
      at.set(o.observed_at, {
        at: o.observed_at,
        lat: o.lat,
        lng: o.lng,
        windKt: o.value,
        pressureMb: null,
        rmwNm: null,
      });
  for (const o of obs) {
    const f = at.get(o.observed_at);
    if (!f) continue;
    if (o.kind === 'central_pressure_mb') f.pressureMb = o.value;
    if (o.kind === 'radius_max_wind_nm') f.rmwNm = o.value;
  }
  return [...at.values()].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/** The perils a hurricane's event loss runs (those of the hurricane package). */
export const HURRICANE_EVENT_PERILS: Peril[] = ['hurricane_wind', 'storm_surge'];

export async function hurricaneFootprints(
  row: EventRow,
  obs: ObservationRow[],
  o: {
    members: number;
    seed: number;
    /** The columns of the book's OED location file: surge rows are made only when its locations can be keyed for surge. */
    bookColumns: readonly string[];
    meanwhile?: () => void | Promise<void>;
  },
): Promise<{ footprints: EventFootprints; source: FootprintSource }> {
  const [
    { landGrid },
    { stormEnsemble },
    { FootprintThreads },
    { PACKAGE_INTENSITY_BIN_COUNT },
    { GRID_CELLS },
    { CELL_MAX_BIN_FILE, CELL_MAX_SURGE_BIN_FILE },
    { surgeKeyable },
  ] = await Promise.all([
    import('../models/hurricane/land-grid.js'),
    import('./hurricane-ensemble.js'),
    import('../models/hurricane/package/footprint-threads.js'),
    import('../models/hurricane/domain/surge/surge-bins.js'),
    import('../models/hurricane/domain/footprint/grid.js'),
    import('../models/hurricane/package/package-files.js'),
    import('../models/hurricane/package/keys.js'),
  ]);
  const fixes = fixesOf(obs);
  if (fixes.length === 0)
    throw new CatintelError(
      'validation_failed',
      `event ${row.slug} has no storm fix (position and wind) yet: no footprint to run; ingest its b-deck or advisories first`,
    );
  const d = eventDetails(row.details);
  const latestMs = Date.parse(fixes[fixes.length - 1].at);
  const forecast = forecastPointsOf(d, latestMs);
  // The members on every core, this thread yielding between its own: a server runs this in the background
  // (the stream's loss queue) and its requests must not wait out the whole ensemble. The observed track
  // every member starts with is footprinted once per thread, each member adding its forecast's steps.
  const threads = new FootprintThreads(1 + o.members);
  // The keys lookup places a location only on cells its package's catalog reaches; a live storm may reach
  // cells the catalog never did (a short test catalog's surge), so the event package's reach is the
  // package's raised to what these footprints bring.
  const maxBin = new Uint8Array(GRID_CELLS);
  const maxSurgeBin = new Uint8Array(GRID_CELLS);
  let footprints: Buffer[];
  let ens;
  try {
    const grid = landGrid();
    threads.useGrid(grid);
    // A storm that has ended, or whose latest fix says it is no longer tropical (extratropical, remnant low...), has no rest to forecast.
    const over = row.status === 'ended' || WINDING_TYPES.has(String(d.classification ?? ''));
    ens = stormEnsemble(fixes, forecast, { members: o.members, seed: o.seed, grid, forecast: !over });
    const tracks = [ens.observed, ...ens.members];
    const made = await threads.footprints(tracks, grid, {
      reach: { wind: maxBin, surge: maxSurgeBin },
      // A book the surge keys place nowhere (a stored portfolio keeps no ground elevation) loses nothing to
      // surge: its surge rows, about a third of the footprints' time, would reach no item.
      surge: surgeKeyable(o.bookColumns),
      first: o.meanwhile,
      between: () => nextTurn(),
    });
    footprints = made.map((fp) => fp.rows);
  } finally {
    threads.close();
  }
  // Each reach file raised to the event's, and whether the event reaches a cell the package does not (0
  // there): the keys lookup asks only that, so otherwise the package's keys are the event package's. Worked
  // out once per package folder: the run asks for both.
  const raisedByDir = new Map<string, { files: Record<string, Buffer>; newCells: number }>();
  const raisedOn = (packageDir: string) => {
    const kept = raisedByDir.get(packageDir);
    if (kept) return kept;
    let newCells = 0;
    const raised = (file: string, event: Uint8Array) => {
      const own = fs.readFileSync(path.join(packageDir, file));
      const out = Buffer.from(own);
      for (let k = 0; k < Math.min(out.length, event.length); k++) {
        if (event[k] > 0 && own[k] === 0) newCells++;
        if (event[k] > out[k]) out[k] = event[k];
      }
      return out;
    };
    const files = {
      [CELL_MAX_BIN_FILE]: raised(CELL_MAX_BIN_FILE, maxBin),
      [CELL_MAX_SURGE_BIN_FILE]: raised(CELL_MAX_SURGE_BIN_FILE, maxSurgeBin),
    };
    const made = { files, newCells };
    raisedByDir.set(packageDir, made);
    return made;
  };
  const latest = fixes[fixes.length - 1].at;
  const version = stormProductVersion(
    d,
    fixes.map((f) => f.at),
  );
  return {
    footprints: {
      pkg: packageOf('hurricane_wind')!,
      perils: HURRICANE_EVENT_PERILS,
      intensityBins: PACKAGE_INTENSITY_BIN_COUNT,
      intensityUncertainty: false,
      footprints,
      bandEvents: ens.members.map((m) => m.eventId),
      observedEvent: 1,
      noDamageBin: null,
      reachFiles: (packageDir) => raisedOn(packageDir).files,
      reachesBeyondPackage: (packageDir) => raisedOn(packageDir).newCells > 0,
      manifest: { event: row.slug, version, forecast: ens.forecast, members: o.members },
    },
    source: {
      product:
        d.feed === 'nhc_gis_5day'
          ? 'NHC GIS forecast advisory'
          : d.feed === 'atcf_bdeck'
            ? 'ATCF b-deck'
            : String(d.feed ?? row.source),
      version,
      issued_at: latest,
      kind: 'observed_track_and_forecast_ensemble',
      members: o.members,
      forecast: ens.forecast,
      forecast_hours: ens.forecastHours,
    },
  };
}

export async function earthquakeFootprints(
  row: EventRow,
  o: { dataDir: string; shakemap?: { grid: PgaGrid; name: string } },
): Promise<{ footprints: EventFootprints; source: FootprintSource }> {
  const { shakeMapFootprint, groundMotionFootprints, EARTHQUAKE_INTENSITY_BINS } =
    await import('./earthquake-footprints.js');
  const base = {
    pkg: packageOf('earthquake')!,
    perils: ['earthquake'] as const,
    intensityBins: EARTHQUAKE_INTENSITY_BINS,
    intensityUncertainty: true,
    observedEvent: null,
    noDamageBin: 1,
  };
  if (o.shakemap) {
    const g = o.shakemap.grid;
    const version = `ShakeMap grid.xml version ${g.version ?? 'unstated'}${g.processedAt ? ` processed ${g.processedAt}` : ''}`;
    return {
      footprints: {
        ...base,
        perils: ['earthquake'],
        footprints: [shakeMapFootprint(g, o.dataDir)],
        bandEvents: [1],
        manifest: { event: row.slug, version },
      },
      source: { product: 'USGS ShakeMap grid.xml', version, issued_at: g.processedAt, kind: 'shakemap', members: 1 },
    };
  }
  // The origin as stored: magnitude (the severity), epicentre; west of the Rockies active crust, else stable.
  const tectonic = row.lng < -105 ? 'active' : 'stable';
  const fps = groundMotionFootprints({ lat: row.lat, lng: row.lng, magnitude: row.severity, tectonic }, o.dataDir);
  const version = productVersionOf(row, []);
  return {
    footprints: {
      ...base,
      perils: ['earthquake'],
      footprints: fps,
      bandEvents: fps.map((_, i) => i + 1),
      manifest: { event: row.slug, version, tectonic },
    },
    source: {
      product: 'earthquake model ground motion from the origin',
      version,
      issued_at: row.updated_at,
      kind: 'ground_motion_model',
      members: fps.length,
    },
  };
}
