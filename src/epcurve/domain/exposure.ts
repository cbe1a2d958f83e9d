/**
 * A portfolio's locations -> exposure per (baseline cell, peril, vulnerability class) (catalog.ts). The
 * insured value of a location is its whole TIV (building + contents + BI + other), each peril it covers
 * (LocPerilsCovered) damaging it at the peril's MDR: ground-up losses, no policy terms (docs/ep-curves.md).
 */
import { cellAt, type HazardGrid } from '../../domain/scoring/grid.js';
import type { PortfolioLocation } from '../../portfolios/read.js';
import { MODELLED_PERILS, type Exposure, type ModelledPeril } from './catalog.js';
import { VULN_CLASSES, constructionClass, occupancyClass, vulnClassOf } from './vulnerability.js';

export interface ExposureSummary {
  exposure: Exposure;
  locations: number;
  /** Locations inside the baseline's coverage with a TIV > 0. */
  modelled: number;
  outsideCoverage: number;
  tivTotal: number;
  currencies: string[];
}

export function tivOf(l: PortfolioLocation): number {
  const t = l.tiv;
  return (t.building || 0) + (t.contents || 0) + (t.bi || 0) + (t.other || 0);
}

export function buildExposure(grid: HazardGrid, locations: readonly PortfolioLocation[], perils: readonly ModelledPeril[]): ExposureSummary {
  const nV = VULN_CLASSES.length;
  const dense = new Map<ModelledPeril, Map<number, Float64Array>>();
  for (const p of perils) dense.set(p, new Map());
  let modelled = 0;
  let outside = 0;
  let tivTotal = 0;
  const currencies = new Set<string>();
  for (const l of locations) {
    const tiv = tivOf(l);
    tivTotal += tiv;
    currencies.add(l.currency);
    const cell = cellAt(grid, l.lat, l.lng);
    if (cell < 0) {
      outside++;
      continue;
    }
    if (!(tiv > 0)) continue;
    modelled++;
    const v = vulnClassOf(constructionClass(l.constructionCode), occupancyClass(l.occupancyCode));
    for (const p of l.perils) {
      const m = dense.get(p as ModelledPeril);
      if (!m) continue;
      let row = m.get(cell);
      if (!row) m.set(cell, (row = new Float64Array(nV)));
      row[v] += tiv;
    }
  }
  const byPeril: Exposure['byPeril'] = new Map();
  for (const p of MODELLED_PERILS) {
    const m = dense.get(p);
    if (!m) continue;
    const sparse = new Map<number, { classes: Int32Array; tiv: Float64Array; total: number }>();
    for (const cell of [...m.keys()].sort((a, b) => a - b)) {
      const row = m.get(cell)!;
      const classes: number[] = [];
      const tiv: number[] = [];
      let total = 0;
      for (let v = 0; v < nV; v++) {
        if (row[v] > 0) {
          classes.push(v);
          tiv.push(row[v]);
          total += row[v];
        }
      }
      sparse.set(cell, { classes: Int32Array.from(classes), tiv: Float64Array.from(tiv), total });
    }
    byPeril.set(p, sparse);
  }
  return { exposure: { byPeril }, locations: locations.length, modelled, outsideCoverage: outside, tivTotal, currencies: [...currencies].sort() };
}
