/**
 * Reads the earthquake source inputs from the shared data directory and returns the rupture set's source
 * model: the same gridded cells, regional rates and fault ruptures as the baseline build
 * (databuild/hazards.ts), each tagged with its tectonic setting.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseNshmCatalog, regionalRate, type RegionalRate } from '../../../reference-data/eq-catalog.js';
import { CHARACTERISTIC_SOURCES, nshmFaultRuptures } from '../../../reference-data/eq-faults.js';
import { parseNshmMmax, parseNshmPdf, smoothCatalogSources, SMOOTHING_SIGMA_KM, type SourceCell } from '../../../reference-data/eq-sources.js';
import { INPUTS, type InputName } from '../../../reference-data/inputs.js';
import type { Tectonic } from '../domain/ground-motion.js';
import type { SourceModel } from '../domain/hazard-curve.js';
import { M_MIN, toFaultRupture, type GriddedSource } from '../domain/rupture-set.js';

/** Catalog completeness used for the regional rates: M ≥ 4.5 since 1930 [judgement, as the baseline build]. */
export const CATALOG_MC = 4.5;
export const CATALOG_FROM_YEAR = 1930;

export interface LoadedSources extends SourceModel {
  rates: { west: RegionalRate; east: RegionalRate };
}

export function loadEarthquakeSources(dataDir: string): LoadedSources {
  const text = (name: InputName): string => {
    const p = path.join(dataDir, INPUTS[name]);
    if (!fs.existsSync(p)) throw new Error(`earthquake input missing: ${p}; pass --from with the shared data directory`);
    return fs.readFileSync(p, 'utf8');
  };
  const wusCat = parseNshmCatalog(text('wusCatalog'), 11);
  const ceusCat = parseNshmCatalog(text('ceusCatalog'), 12);
  const west = regionalRate(wusCat, CATALOG_MC, CATALOG_FROM_YEAR);
  const east = regionalRate(ceusCat, CATALOG_MC, CATALOG_FROM_YEAR);
  const wusRecent = wusCat.filter((e) => e.magnitude >= CATALOG_MC && e.year >= CATALOG_FROM_YEAR);
  const westCells = smoothCatalogSources(
    [
      { events: wusRecent, sigmaKm: SMOOTHING_SIGMA_KM, weight: 0.8 },
      { events: wusRecent, sigmaKm: 150, weight: 0.2 },
    ],
    'west',
    parseNshmMmax(text('nshmWusExtPdf')),
  );
  const eastCells = parseNshmPdf(text('nshmCeusPdf'), 'east');
  const faults = nshmFaultRuptures(text('nshmFaultSections'), text('nshmFaultSlipRates'), text('nshmSpecialFaults'));
  return {
    grid: [...gridded(westCells, west, 'active'), ...gridded(eastCells, east, 'stable')],
    faults: [...faults.ruptures, ...CHARACTERISTIC_SOURCES].map(toFaultRupture),
    rates: { west, east },
  };
}

function gridded(cells: SourceCell[], rate: RegionalRate, tectonic: Tectonic): GriddedSource[] {
  const rateM5 = rate.rateAboveMc * 10 ** (-rate.b * (M_MIN - rate.mc));
  return cells.map((c) => ({ lat: c.lat, lng: c.lng, tectonic, rateM5: rateM5 * c.pdf, b: rate.b, mMax: c.mMax }));
}
