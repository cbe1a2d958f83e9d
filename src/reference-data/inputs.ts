/**
 * The public catalogs the baseline is built from, as paths under the shared data directory
 * (../shared/data/SOURCES.md §2, §4 give provenance), and their content hashes for the manifest.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const INPUTS = {
  hurdatAtlantic: 'hazard_history/hurricanes/hurdat2-1851-2024-040425_reassembled.txt',
  hurdatPacific: 'hazard_history/hurricanes/hurdat2-nepac-1949-2024-031725.txt',
  nshmCeusPdf: 'hazard_history/earthquakes/usgs_nshm2023_conus/stable-crust_grid_pdf-gk-adaptive.csv',
  ceusCatalog: 'hazard_history/earthquakes/usgs_nshm2023_conus/ceus_full_catalog_emm_pn.c2.txt',
  wusCatalog: 'hazard_history/earthquakes/usgs_nshm_catalogs_wus/2014_wmm.c3.txt',
  tornadoes: 'hazard_history/tornadoes/spc_1950-2022_actual_tornadoes_repo-subset.csv',
  ics209: 'hazard_history/wildfire_ics209/ics209_historical_cleaned.parquet',
  nriStates: 'hazard_history/fema_nri/NRI_Table_States.csv',
  nriHazardInfo: 'hazard_history/fema_nri/NRI_HazardInfo.csv',
  cenPop: 'exposure/CenPop2020_Mean_CO.txt',
  nshmFaultSections: 'hazard_history/earthquakes/nshm2023_faults/NSHM23_FSD_v3.geojson',
  nshmFaultSlipRates: 'hazard_history/earthquakes/nshm2023_faults/NSHM23_GeolDefMod_v1p4.geojson',
  nshmSpecialFaults: 'hazard_history/earthquakes/nshm2023_faults/special_faults.json',
  nshmWusExtPdf: 'hazard_history/earthquakes/usgs_nshm2023_conus/active-crust_grid_pdf-ext-adaptive.csv',
  nwpsGauges: 'feeds/nwps/nwps_all_gauges_report.csv',
  hospitals: 'infrastructure/hifld_hospitals.csv',
  lawEnforcement: 'infrastructure/hifld_local_law_enforcement_locations.csv',
  urgentCare: 'infrastructure/hifld_urgent_care_facilities.csv',
} as const;
export type InputName = keyof typeof INPUTS;

/**
 * The newest vintage among the inputs (NRI v1.20, December 2025), used as `ingested_at`: the build
 * writes no wall-clock time, so the same inputs always give the same bytes.
 */
export const DATA_VINTAGE = '2025-12-01T00:00:00Z';

export class Inputs {
  constructor(readonly fromDir: string) {}

  path(name: InputName): string {
    return path.join(this.fromDir, INPUTS[name]);
  }

  text(name: InputName): string {
    const p = this.path(name);
    if (!fs.existsSync(p))
      throw new Error(
        `input ${INPUTS[name]} not found under ${this.fromDir}; pass --from <dir> pointing at the shared data directory`,
      );
    return fs.readFileSync(p, 'utf8').replace(/^\uFEFF/, '');
  }

  /** sha256 and size of every input, in a fixed order. */
  fingerprints(): Array<{ path: string; bytes: number; sha256: string }> {
    return (Object.keys(INPUTS) as InputName[]).map((k) => {
      const buf = fs.readFileSync(this.path(k));
      return { path: INPUTS[k], bytes: buf.length, sha256: createHash('sha256').update(buf).digest('hex') };
    });
  }
}
