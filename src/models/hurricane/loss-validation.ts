/**
 * The hurricane model's losses against FEMA's National Risk Index and against two storms' reported losses,
 * shared by scripts/validate-hurricane-losses.ts (which writes the "Hurricane design winds and losses"
 * section of docs/validation.md) and the tests.
 *
 * Exposure: each county's NRI building value (BUILDVALUE, the summary subset of the NRI county table) at
 * its 2020 Census centre of population, as a building mix (building-mix.ts). Loss: for every storm, its
 * peak gust at each county centre (point-gusts.ts: the model's wind field), the gust's intensity bin and
 * the mix's mean damage ratio in that bin (the model's vulnerability), times the value. A county's
 * average annual loss (AAL) is the sum over the catalog's storms of that loss times the storm's annual
 * rate (1 / the catalog's years); a state's rate is its counties' AAL over their value.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseCenPop } from '../../databuild/census.js';
import { nriNumber, parseNriStates } from '../../databuild/nri.js';
import { parseNriCounties } from '../../databuild/validation-losses.js';
import { spearman } from '../../lib/stats.js';
import { cellOf, GRID_COLS, type LandGrid } from './domain/footprint/grid.js';
import { pointPeakGusts, type PointGusts, type PointSet } from './domain/footprint/point-gusts.js';
import type { Site } from './domain/hazard-curve.js';
import { binOfGust } from './domain/intensity-bins.js';
import type { Track } from './domain/track.js';

export const LOSS_CHECK_FILES = {
  states: 'hazard_history/fema_nri/NRI_Table_States.csv',
  counties: 'hazard_history/fema_nri/NRI_Table_Counties_summary-columns-subset.csv',
  florida: 'hazard_history/fema_nri/NRI_Table_Counties_Florida_v1.19.csv',
  centres: 'exposure/CenPop2020_Mean_CO.txt',
  billionDollar: 'losses/noaa_billion_dollar/events-US-1980-2024-Q4.csv',
} as const;

export interface ExposurePoint extends Site {
  fips: string;
  county: string;
  state: string;
  /** NRI building value (USD). */
  value: number;
}

function read(dataDir: string, rel: string): string {
  const file = path.join(dataDir, rel);
  if (!fs.existsSync(file)) throw new Error(`${file} not found; pass the shared data directory (the one holding hazard_history/ and exposure/)`);
  return fs.readFileSync(file, 'utf8');
}

/** Counties on the wind grid with an NRI building value, at their centre of population, with the grid's distance inland. */
export function nriExposure(dataDir: string, grid: LandGrid): ExposurePoint[] {
  const counties = parseNriCounties(read(dataDir, LOSS_CHECK_FILES.counties));
  const out: ExposurePoint[] = [];
  for (const c of parseCenPop(read(dataDir, LOSS_CHECK_FILES.centres))) {
    const nri = counties.get(c.fips);
    const value = Number(nri?.BUILDVALUE);
    if (!nri || !(value > 0)) continue;
    const cell = cellOf(c.lat, c.lng);
    if (!cell) continue;
    const k = cell.row * GRID_COLS + cell.col;
    const inland = grid.land[k] ? grid.inlandKm[k] : 0;
    out.push({ fips: c.fips, county: c.county, state: nri.STATEABBRV, value, lat: c.lat, lng: c.lng, inlandKm: Number.isFinite(inland) ? inland : 1e6 });
  }
  return out;
}

/** Every track's gusts at the points (same order as tracks). */
export function catalogPointGusts(tracks: readonly Track[], set: PointSet): PointGusts[] {
  return tracks.map((t) => pointPeakGusts(t, set));
}

/** Loss of one storm at each point it reaches: value × the mean damage ratio of the gust's bin. */
export function stormLoss(g: PointGusts, points: readonly ExposurePoint[], mdrByBin: (p: ExposurePoint) => number[]): number {
  let loss = 0;
  for (let j = 0; j < g.points.length; j++) {
    const p = points[g.points[j]];
    if (!p) continue;
    loss += p.value * mdrByBin(p)[binOfGust(g.gustMph[j]) - 1];
  }
  return loss;
}

/** AAL (USD) per point from a catalog's gusts, each track at ratePerTrack a year. */
export function aalByPoint(gusts: readonly PointGusts[], ratePerTrack: number, points: readonly ExposurePoint[], mdrByBin: (p: ExposurePoint) => number[]): Float64Array {
  const aal = new Float64Array(points.length);
  for (const g of gusts) {
    for (let j = 0; j < g.points.length; j++) {
      const i = g.points[j];
      const p = points[i];
      if (!p) continue;
      aal[i] += ratePerTrack * p.value * mdrByBin(p)[binOfGust(g.gustMph[j]) - 1];
    }
  }
  return aal;
}

export interface RateRow {
  name: string;
  value: number;
  ours: number;
  nri: number;
}

export interface RateComparison {
  rows: RateRow[];
  rho: number;
  medianRatio: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function compareRates(rows: RateRow[]): RateComparison {
  const ok = rows.filter((r) => r.nri > 0);
  return {
    rows,
    rho: spearman(ok.map((r) => r.ours), ok.map((r) => r.nri)),
    medianRatio: median(ok.filter((r) => r.ours > 0).map((r) => r.ours / r.nri)),
  };
}

/**
 * State AAL rate (our AAL over the state's building value) against NRI v1.20's state hurricane expected
 * annual building loss over its building value, for every state on the wind grid where NRI has a
 * hurricane loss.
 */
export function stateRates(dataDir: string, points: readonly ExposurePoint[], aal: Float64Array): RateComparison {
  const nri = parseNriStates(read(dataDir, LOSS_CHECK_FILES.states));
  const byState = new Map<string, { value: number; aal: number }>();
  points.forEach((p, i) => {
    const s = byState.get(p.state) ?? { value: 0, aal: 0 };
    s.value += p.value;
    s.aal += aal[i];
    byState.set(p.state, s);
  });
  const rows: RateRow[] = [];
  for (const s of nri.values()) {
    const ours = byState.get(s.STATEABBRV);
    const eal = nriNumber(s, 'HRCN_EALB');
    const value = nriNumber(s, 'BUILDVALUE');
    if (!ours || !(eal > 0) || !(value > 0)) continue;
    rows.push({ name: s.STATEABBRV, value: ours.value, ours: ours.aal / ours.value, nri: eal / value });
  }
  rows.sort((a, b) => b.nri - a.nri);
  return compareRates(rows);
}

/** Florida counties: our AAL rate at the county centre against NRI v1.19's county HRCN_EALB / BUILDVALUE. */
export function floridaCountyRates(dataDir: string, points: readonly ExposurePoint[], aal: Float64Array): RateComparison {
  const fl = parseNriCounties(read(dataDir, LOSS_CHECK_FILES.florida));
  const rows: RateRow[] = [];
  points.forEach((p, i) => {
    if (p.state !== 'FL') return;
    const r = fl.get(p.fips);
    const eal = Number(r?.HRCN_EALB);
    const value = Number(r?.BUILDVALUE);
    if (!r || !(eal >= 0) || !(value > 0)) return;
    rows.push({ name: p.county, value: p.value, ours: aal[i] / p.value, nri: eal / value });
  });
  rows.sort((a, b) => b.nri - a.nri);
  return compareRates(rows);
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
