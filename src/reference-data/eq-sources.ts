/**
 * Earthquake source cells (0.1°, a spatial density pdf summing to 1 over a region, and Mmax) for
 * earthquake.ts.
 *  - CEUS: the USGS NSHM 2023 stable-crust smoothed-seismicity grid (pdf-gk-adaptive.csv: Gardner–
 *    Knopoff declustered catalog, adaptive kernel), used as published.
 *  - WUS: the shared data holds only NSHM's *extensional* active-crust grid (pdf-ext-adaptive.csv), which
 *    is near zero over coastal California and the Pacific Northwest (those zones have their own grids and
 *    fault models, not in the shared data). So in the WUS we take the catalog route of docs/methods.md#score-mappings: smooth the
 *    NSHMP 2014 declustered catalog (weights N*) with a Gaussian of σ = 50 km (docs/methods.md#score-mappings, marked U
 *    there) onto a 0.1° grid. The 1930–2012 window alone under-weights faults that were quiet then (the
 *    San Francisco Bay Area after 1906), so the density mixes two completeness bands in the spirit of
 *    Weichert (1980), M ≥ 4.5 since 1930 and M ≥ 6.0 since 1850 (40 % each), plus 20 % of the first
 *    band smoothed at σ = 150 km as a background for the sparse interior (Front Range, Rio Grande rift),
 *    which the 50-km kernel leaves nearly empty [judgement; NSHM uses adaptive kernels for this].
 */
import { parse } from 'csv-parse/sync';
import { KM_PER_DEG } from './cell-query.js';
import type { CatalogEvent } from './eq-catalog.js';
import type { Region } from './eq-region.js';

export interface SourceCell {
  lat: number;
  lng: number;
  pdf: number;
  mMax: number;
}

/**
 * Gridded-seismicity Mmax where NSHM gives none [judgement]: NSHM uses Mmax distributions for its grids; in the
 * WUS the larger earthquakes now come from the fault sources (eq-faults.ts), so the grid stops at 7.0 (NSHM's
 * own extensional grid gives 6.5–7.4 near faults, and those values are used where it has them, `nshmMmax`);
 * in the CEUS 7.0, near the centre of the NSHM stable-craton distribution.
 */
export const DEFAULT_MMAX: Record<Region, number> = { west: 7.0, east: 7.0 };

/** NSHM 2023's gridded Mmax (active-crust extensional grid, column mMax) by 0.1° cell key. */
export function parseNshmMmax(text: string): Map<string, number> {
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const out = new Map<string, number>();
  for (const r of rows) if (r.mMax) out.set(cellKey(Number(r.lat), Number(r.lon)), Number(r.mMax));
  return out;
}

function cellKey(lat: number, lng: number): string {
  return `${Math.round(lat * 10)},${Math.round(lng * 10)}`;
}
const STEP_DEG = 0.1;
/** docs/methods.md#score-mappings catalog route: Gaussian smoothing of a-values, ~50 km (U there). */
export const SMOOTHING_SIGMA_KM = 50;
/** Kernel tails below this density carry no rate worth integrating. */
const MIN_PDF = 1e-9;

export function parseNshmPdf(text: string, region: Region): SourceCell[] {
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  return rows
    .map((r) => ({
      lat: Number(r.lat),
      lng: Number(r.lon),
      pdf: Number(r.pdf),
      mMax: r.mMax ? Math.max(5.5, Number(r.mMax)) : DEFAULT_MMAX[region],
    }))
    .filter((s) => s.pdf > MIN_PDF)
    .sort((a, b) => a.lat - b.lat || a.lng - b.lng);
}

export interface SourceGroup {
  events: CatalogEvent[];
  sigmaKm: number;
  weight: number; // weights of all groups sum to 1
}

/** A weighted mix of the smoothed densities of each event group (each normalised to 1). */
export function smoothCatalogSources(
  groups: SourceGroup[],
  region: Region,
  nshmMmax: Map<string, number> = new Map(),
): SourceCell[] {
  const all = groups.flatMap((g) => g.events);
  if (all.length === 0) return [];
  const pad = (3 * Math.max(...groups.map((g) => g.sigmaKm))) / 111 + STEP_DEG;
  const grids = groups.map((g) => smoothedGrid(g.events, all, g.sigmaKm, pad));
  const out: SourceCell[] = [];
  const { rows, cols, lat0, lng0 } = grids[0];
  for (let i = 0; i < rows * cols; i++) {
    let pdf = 0;
    grids.forEach((g, k) => (pdf += g.w[i] * groups[k].weight));
    if (!(pdf > MIN_PDF)) continue;
    const lat = lat0 + (Math.floor(i / cols) + 0.5) * STEP_DEG;
    const lng = lng0 + ((i % cols) + 0.5) * STEP_DEG;
    // The NSHM node at this cell's south-west corner (NSHM nodes sit on whole 0.1° values).
    const m = nshmMmax.get(cellKey(lat - STEP_DEG / 2, lng - STEP_DEG / 2));
    out.push({ lat, lng, pdf, mMax: m !== undefined ? Math.round(Math.max(5.5, m) * 10) / 10 : DEFAULT_MMAX[region] });
  }
  return out;
}

/** Gaussian-smoothed density of `events` on a 0.1° grid over the bounding box of `extent` (+pad), normalised to 1. */
function smoothedGrid(events: CatalogEvent[], extent: CatalogEvent[], sigmaKm: number, pad: number) {
  const lat0 = Math.floor((Math.min(...extent.map((e) => e.lat)) - pad) / STEP_DEG) * STEP_DEG;
  const lat1 = Math.max(...extent.map((e) => e.lat)) + pad;
  const lng0 = Math.floor((Math.min(...extent.map((e) => e.lng)) - 2 * pad) / STEP_DEG) * STEP_DEG;
  const lng1 = Math.max(...extent.map((e) => e.lng)) + 2 * pad;
  const rows = Math.ceil((lat1 - lat0) / STEP_DEG);
  const cols = Math.ceil((lng1 - lng0) / STEP_DEG);
  const w = new Float64Array(rows * cols);
  const reach = 3 * sigmaKm;
  for (const e of events) {
    const r0 = Math.max(0, Math.floor((e.lat - reach / 111 - lat0) / STEP_DEG));
    const r1 = Math.min(rows - 1, Math.ceil((e.lat + reach / 111 - lat0) / STEP_DEG));
    const dLng = reach / (111 * Math.cos((e.lat * Math.PI) / 180));
    const c0 = Math.max(0, Math.floor((e.lng - dLng - lng0) / STEP_DEG));
    const c1 = Math.min(cols - 1, Math.ceil((e.lng + dLng - lng0) / STEP_DEG));
    for (let r = r0; r <= r1; r++) {
      // flatDistanceKm term by term, its row's terms once a row: the cosine of the mean latitude and the
      // northing are the same for every cell of the row (the same operations on the same values, so the
      // same distances), and a grid of tens of thousands of cells per event no longer takes one cosine each.
      const lat = lat0 + (r + 0.5) * STEP_DEG;
      const cos = Math.cos(((e.lat + lat) / 2) * (Math.PI / 180));
      const dy = (lat - e.lat) * KM_PER_DEG;
      for (let c = c0; c <= c1; c++) {
        const dx = (lng0 + (c + 0.5) * STEP_DEG - e.lng) * cos * KM_PER_DEG;
        const d = Math.sqrt(dx * dx + dy * dy);
        if (d <= reach) w[r * cols + c] += e.nStar * Math.exp((-d * d) / (2 * sigmaKm ** 2));
      }
    }
  }
  const total = w.reduce((a, b) => a + b, 0);
  for (let i = 0; i < w.length; i++) w[i] /= total;
  return { rows, cols, lat0, lng0, w };
}
