/**
 * Earthquake shaking hazard per CONUS cell, the catalog route of docs/methods.md#score-mappings on the USGS NSHM 2023
 * smoothed-seismicity grids:
 *   ν_c(≥m) = N_R(≥5) · pdf_c · (10^{−b(m−5)} − 10^{−b(Mmax−5)}) / (1 − 10^{−b(Mmax−5)})
 *   λ_site(MMI ≥ i) = Σ_c Σ_m ν_c(m) · P(MMI ≥ i | m, R)
 * where pdf_c is the spatial density of each 0.1° source cell (eq-sources.ts: NSHM 2023 stable-crust grid
 * in the CEUS, our smoothing of the NSHMP catalog in the WUS), N_R and b come from the NSHMP catalogs
 * (eq-catalog.ts), P uses AWW14 (src/domain/rings/earthquake.ts;
 * the eastern form for CEUS sources) with σ_MMI = 0.7, normal (docs/methods.md#score-mappings), hypocentral depth 10 km.
 * The sum over magnitudes is tabulated per region and Mmax as G_i(R), so each site–source pair costs one
 * table lookup per MMI level. Fault sources (eq-faults.ts: NSHM 2023 western faults, Cascadia, New Madrid,
 * Charleston) add their characteristic ruptures with the rupture distance. A regional site term is added to
 * AWW14's median for every source (docs/scoring.md §4.3).
 */
import { aww14Mmi } from '../domain/rings/earthquake.js';
import { normalCdf } from '../lib/numerics/normal.js';
import { flatDistanceKm } from '../reference-data/cell-query.js';
import type { RegionalRate } from '../reference-data/eq-catalog.js';
import type { BuildCell } from '../reference-data/regions.js';
import { addFaultRates, FAULT_CUTOFF_KM, ruptureBox, type Rupture } from '../reference-data/eq-faults.js';
import type { SourceCell } from '../reference-data/eq-sources.js';
import type { Region } from '../reference-data/eq-region.js';

export const MMI_LEVELS = [5, 6, 7, 8, 9] as const;
const M_MIN = 5.0;
const M_BIN = 0.1;
const SIGMA_MMI = 0.7;
const DEPTH_KM = 10;
/** Sources beyond these distances add < 1 % to λ(MMI ≥ VI) at any site we tested [judgement]. */
const CUTOFF_KM = { west: 300, east: 400 } as const;
const TABLE_STEP_KM = 1;

/** G_i(R) for one region and Mmax: Σ_m f(m)·P(MMI ≥ i | m, R), f the truncated-GR pmf per event M ≥ 5. */
function intensityTable(region: Region, b: number, mMax: number, level: number, siteTerm: number): Float64Array {
  const n = Math.ceil(CUTOFF_KM[region] / TABLE_STEP_KM) + 2;
  const t = new Float64Array(n);
  const norm = 1 - 10 ** (-b * (mMax - M_MIN));
  for (let m = M_MIN; m < mMax - 1e-9; m += M_BIN) {
    const hi = Math.min(m + M_BIN, mMax);
    const p = (10 ** (-b * (m - M_MIN)) - 10 ** (-b * (hi - M_MIN))) / norm;
    const mc = (m + hi) / 2;
    for (let k = 0; k < n; k++) {
      const mu = aww14Mmi(mc, k * TABLE_STEP_KM, DEPTH_KM, region) + siteTerm;
      t[k] += p * (1 - normalCdf((level - mu) / SIGMA_MMI));
    }
  }
  return t;
}

interface Prepared {
  region: Region;
  cutoffKm: number;
  sources: SourceCell[];
  rate5: number; // N_R(M ≥ 5) per year
  tables: Map<number, Float64Array[]>; // by Mmax (0.01 steps) → per MMI level
  buckets: Map<string, number[]>; // 1° buckets of source indices
}

function prepare(region: Region, sources: SourceCell[], rate: RegionalRate, siteTerm: number): Prepared {
  const rate5 = rate.rateAboveMc * 10 ** (-rate.b * (M_MIN - rate.mc));
  const tables = new Map<number, Float64Array[]>();
  const buckets = new Map<string, number[]>();
  sources.forEach((s, i) => {
    const key = Math.round(s.mMax * 100);
    if (!tables.has(key))
      tables.set(
        key,
        MMI_LEVELS.map((lv) => intensityTable(region, rate.b, s.mMax, lv, siteTerm)),
      );
    const bk = `${Math.floor(s.lat)},${Math.floor(s.lng)}`;
    let list = buckets.get(bk);
    if (!list) buckets.set(bk, (list = []));
    list.push(i);
  });
  return { region, cutoffKm: CUTOFF_KM[region], sources, rate5, tables, buckets };
}

export interface EarthquakeResult {
  /** λ(MMI ≥ level) per cell, one array per MMI_LEVELS entry; NaN outside the NSHM grids. */
  lambdaByLevel: Float64Array[];
  rp100Mmi: Float64Array;
}

export interface FaultInput {
  ruptures: readonly Rupture[];
  /** Added to AWW14's median MMI, per source region. */
  siteTermMmi: Record<Region, number>;
}

export function earthquakeHazard(
  cells: BuildCell[],
  west: { sources: SourceCell[]; rate: RegionalRate },
  east: { sources: SourceCell[]; rate: RegionalRate },
  inConus: (cell: BuildCell) => boolean,
  faults: FaultInput = { ruptures: [], siteTermMmi: { west: 0, east: 0 } },
): EarthquakeResult {
  const regions = [
    prepare('west', west.sources, west.rate, faults.siteTermMmi.west),
    prepare('east', east.sources, east.rate, faults.siteTermMmi.east),
  ];
  const boxes = faults.ruptures.map(ruptureBox);
  const near: Rupture[] = [];
  const fAcc = new Float64Array(MMI_LEVELS.length);
  const lambdaByLevel = MMI_LEVELS.map(() => new Float64Array(cells.length).fill(NaN));
  const rp100Mmi = new Float64Array(cells.length).fill(NaN);
  const acc = new Float64Array(MMI_LEVELS.length);
  cells.forEach((cell, ci) => {
    if (!inConus(cell)) return;
    acc.fill(0);
    for (const reg of regions) accumulate(reg, cell, acc);
    near.length = 0;
    const padLat = FAULT_CUTOFF_KM / 111;
    const padLng = FAULT_CUTOFF_KM / (111 * Math.cos((cell.lat * Math.PI) / 180));
    boxes.forEach(([s, w, n, e], i) => {
      if (cell.lat >= s - padLat && cell.lat <= n + padLat && cell.lng >= w - padLng && cell.lng <= e + padLng)
        near.push(faults.ruptures[i]);
    });
    fAcc.fill(0);
    addFaultRates(cell.lat, cell.lng, near, { levels: MMI_LEVELS, siteTermMmi: faults.siteTermMmi }, fAcc);
    for (let k = 0; k < MMI_LEVELS.length; k++) acc[k] += fAcc[k];
    for (let k = 0; k < MMI_LEVELS.length; k++) lambdaByLevel[k][ci] = acc[k];
    rp100Mmi[ci] = levelAtRate(acc, 0.01);
  });
  return { lambdaByLevel, rp100Mmi };
}

function accumulate(reg: Prepared, cell: BuildCell, acc: Float64Array): void {
  const dLat = Math.ceil(reg.cutoffKm / 111) + 1;
  const dLng = Math.ceil(reg.cutoffKm / (111 * Math.cos((cell.lat * Math.PI) / 180))) + 1;
  const lat0 = Math.floor(cell.lat);
  const lng0 = Math.floor(cell.lng);
  for (let la = lat0 - dLat; la <= lat0 + dLat; la++) {
    for (let lo = lng0 - dLng; lo <= lng0 + dLng; lo++) {
      const list = reg.buckets.get(`${la},${lo}`);
      if (!list) continue;
      for (const i of list) {
        const s = reg.sources[i];
        const d = flatDistanceKm(cell.lat, cell.lng, s.lat, s.lng);
        if (d > reg.cutoffKm) continue;
        const tables = reg.tables.get(Math.round(s.mMax * 100))!;
        const x = d / TABLE_STEP_KM;
        const k = Math.floor(x);
        const f = x - k;
        const w = reg.rate5 * s.pdf;
        for (let lv = 0; lv < tables.length; lv++) {
          const t = tables[lv];
          acc[lv] += w * (t[k] + (t[k + 1] - t[k]) * f);
        }
      }
    }
  }
}

/** MMI whose exceedance rate is `rate`, interpolating log λ between the tabulated levels; NaN below MMI V. */
export function levelAtRate(lambdas: ArrayLike<number>, rate: number): number {
  if (!(lambdas[0] >= rate)) return NaN;
  for (let k = 1; k < MMI_LEVELS.length; k++) {
    if (lambdas[k] < rate) {
      const a = Math.log(lambdas[k - 1]);
      const b = lambdas[k] > 0 ? Math.log(lambdas[k]) : a - 50;
      return MMI_LEVELS[k - 1] + (MMI_LEVELS[k] - MMI_LEVELS[k - 1]) * ((a - Math.log(rate)) / (a - b));
    }
  }
  return MMI_LEVELS[MMI_LEVELS.length - 1];
}
