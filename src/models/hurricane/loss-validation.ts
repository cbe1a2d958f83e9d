/**
 * The hurricane model's losses against FEMA's National Risk Index and against two storms' reported losses,
 * shared by scripts/validate-hurricane-losses.ts (which writes the losses of the "Hurricane design winds
 * and losses" section of docs/validation.md) and the tests.
 *
 * Every loss here comes from the one loss engine: the NRI building value as an OED book
 * (../shared/nri-exposure-book.ts: each county's value at its centre of population over a building mix of
 * OED codes), the hurricane package's keys lookup, the Oasis input files and the kernel (runBook), wind
 * only (LocPerilsCovered WTC: NRI's hurricane building loss is the wind's; its coastal flooding is another
 * hazard). A state's rate is its book's AAL over its value; a Florida county's likewise. A storm of the
 * record is a one-event package: its HURDAT2 track footprinted by the package builder's own code
 * (stormFootprint) beside the package's vulnerability, so its loss is the kernel's over that one event.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeOneEventPackage } from '../shared/package/one-event-package.js';
import type { CountyExposure, GroupLoss } from '../shared/nri-exposure-book.js';
import { countyRates, type RateComparison } from '../shared/nri-rates.js';
import { GRID_CELLS, type LandGrid } from './domain/footprint/grid.js';
import { CELL_MAX_BIN_FILE, CELL_MAX_SURGE_BIN_FILE } from './package/package-files.js';
import type { Track } from './domain/track.js';
import { stormFootprint } from './package/storm-footprint.js';

export const LOSS_CHECK_FILES = {
  florida: 'hazard_history/fema_nri/NRI_Table_Counties_Florida_v1.19.csv',
  billionDollar: 'losses/noaa_billion_dollar/events-US-1980-2024-Q4.csv',
} as const;

/** The book's LocPerilsCovered: hurricane wind only. */
export const WIND_ONLY = 'WTC';

function read(dataDir: string, rel: string): string {
  const file = path.join(dataDir, rel);
  if (!fs.existsSync(file)) throw new Error(`${file} not found; pass the shared data directory (the one holding hazard_history/ and losses/)`);
  return fs.readFileSync(file, 'utf8');
}

/** Florida counties against NRI v1.19's Florida county table (hurricane). */
export function floridaCountyRates(dataDir: string, counties: readonly CountyExposure[], byFips: ReadonlyMap<string, GroupLoss>): RateComparison {
  return countyRates(dataDir, LOSS_CHECK_FILES.florida, 'HRCN', counties.filter((c) => c.state === 'FL'), byFips);
}

/** The states with a Gulf of Mexico or Atlantic sea coast, Texas to Maine. */
export const GULF_ATLANTIC_STATES = ['TX', 'LA', 'MS', 'AL', 'FL', 'GA', 'SC', 'NC', 'VA', 'MD', 'DE', 'NJ', 'NY', 'CT', 'RI', 'MA', 'NH', 'ME'];

export interface ReportedLoss {
  storm: string;
  parentId: string;
  /** Name in NOAA's billion-dollar list. */
  noaaName: string;
}

/** The two storms checked against their reported losses. */
export const LOSS_STORMS: ReportedLoss[] = [
  { storm: 'Andrew 1992', parentId: 'AL041992', noaaName: 'Hurricane Andrew (August 1992)' },
  { storm: 'Ian 2022', parentId: 'AL092022', noaaName: 'Hurricane Ian (September 2022)' },
];

/** NOAA NCEI billion-dollar list: CPI-adjusted (2024 USD) and unadjusted total direct losses, USD. */
export function billionDollarLoss(dataDir: string, noaaName: string): { cpiAdjusted: number; unadjusted: number } {
  const lines = read(dataDir, LOSS_CHECK_FILES.billionDollar).split(/\r?\n/);
  const line = lines.find((l) => l.startsWith(noaaName + ','));
  if (!line) throw new Error(`"${noaaName}" is not in ${LOSS_CHECK_FILES.billionDollar}; check the storm's name in the list`);
  const cells = line.split(',');
  return { cpiAdjusted: Number(cells[4]) * 1e6, unadjusted: Number(cells[5]) * 1e6 };
}

/**
 * A models folder whose hurricane/ package is the one storm of the record: its track footprinted as the
 * package build footprints a catalog storm, beside `basePackageDir`'s vulnerability. The keys lookup's
 * record of the cells reached is this storm's own, so which locations the storm reaches does not depend
 * on the catalog the base package was built with.
 */
export async function historicalStormModels(track: Track, grid: LandGrid, basePackageDir: string, outModelsDir: string): Promise<string> {
  const reach = { wind: new Uint8Array(GRID_CELLS), surge: new Uint8Array(GRID_CELLS) };
  const fp = stormFootprint(track, grid, reach);
  const files = { [CELL_MAX_BIN_FILE]: Buffer.from(reach.wind.buffer), [CELL_MAX_SURGE_BIN_FILE]: Buffer.from(reach.surge.buffer) };
  await writeOneEventPackage({ basePackageDir, out: path.join(outModelsDir, 'hurricane'), rows: fp.rows, event: `HURDAT2 ${track.parentId}`, files });
  return outModelsDir;
}
