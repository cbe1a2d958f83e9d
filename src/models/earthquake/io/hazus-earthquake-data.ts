/**
 * Reads the Hazus 6.1 earthquake building data (SimCenter Damage and Loss Model Library): the PGA-based
 * fragilities (`LF.*` rows of fragility.csv) and the repair-cost ratios and repair times by occupancy
 * (consequence_repair.csv).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../../../errors.js';
import { OCCUPANCIES, type Occupancy } from '../domain/vulnerability/building-types.js';
import type { PgaFragility } from '../domain/vulnerability/hazus-damage.js';
import type { HazusEarthquakeData } from '../domain/vulnerability/vulnerability-table.js';

export const HAZUS_EQ_FILES = { fragility: 'fragility.csv', consequence: 'consequence_repair.csv' } as const;

function readTable(dir: string, name: string, required: string[]): { col: (row: string[], name: string) => string; rows: string[][] } {
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) throw new CatintelError('invalid_input', `${file} does not exist; give the HAZUS earthquake folder holding ${Object.values(HAZUS_EQ_FILES).join(', ')}`);
  // Neither file quotes a cell with a comma in it, so a line splits on commas.
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/).filter((l) => l.length > 0);
  const header = new Map(lines[0].split(',').map((h, i) => [h.trim(), i]));
  for (const r of required) if (!header.has(r)) throw new CatintelError('invalid_input', `${file}: no column ${r}; give the HAZUS earthquake folder of the SimCenter library`);
  return { col: (row, n) => row[header.get(n)!] ?? '', rows: lines.slice(1).map((l) => l.split(',')) };
}

const num = (file: string, id: string, text: string): number => {
  const v = Number(text);
  if (text.trim() === '' || !Number.isFinite(v)) throw new CatintelError('invalid_input', `${file}: ${id} has a value "${text}" that is not a number`);
  return v;
};

export function readHazusEarthquake(dir: string): HazusEarthquakeData {
  const frag = readTable(dir, HAZUS_EQ_FILES.fragility, ['ID', 'Demand-Type', 'Demand-Unit', ...[1, 2, 3, 4].flatMap((k) => [`LS${k}-Family`, `LS${k}-Theta_0`, `LS${k}-Theta_1`])]);
  const fragilities = new Map<string, PgaFragility>();
  for (const row of frag.rows) {
    const id = frag.col(row, 'ID');
    if (!id.startsWith('LF.')) continue;
    if (frag.col(row, 'Demand-Type') !== 'Peak Ground Acceleration' || frag.col(row, 'Demand-Unit') !== 'g') throw new CatintelError('invalid_input', `${HAZUS_EQ_FILES.fragility}: ${id} is not a PGA (g) fragility`);
    const medians: number[] = [];
    const betas: number[] = [];
    for (let k = 1; k <= 4; k++) {
      if (frag.col(row, `LS${k}-Family`) !== 'lognormal') throw new CatintelError('invalid_input', `${HAZUS_EQ_FILES.fragility}: ${id} limit state ${k} is not lognormal`);
      medians.push(num(HAZUS_EQ_FILES.fragility, id, frag.col(row, `LS${k}-Theta_0`)));
      betas.push(num(HAZUS_EQ_FILES.fragility, id, frag.col(row, `LS${k}-Theta_1`)));
    }
    fragilities.set(id, { id, medians, betas });
  }
  if (fragilities.size === 0) throw new CatintelError('invalid_input', `${HAZUS_EQ_FILES.fragility} has no LF.* (PGA) fragilities; give the Hazus earthquake building fragility file`);

  const cons = readTable(dir, HAZUS_EQ_FILES.consequence, ['ID', 'DS1-Theta_0', 'DS2-Theta_0', 'DS3-Theta_0', 'DS4-Theta_0']);
  const byId = new Map(cons.rows.map((row) => [cons.col(row, 'ID'), [1, 2, 3, 4].map((k) => cons.col(row, `DS${k}-Theta_0`))]));
  const values = (id: string): number[] | undefined => byId.get(id)?.map((t) => num(HAZUS_EQ_FILES.consequence, id, t));
  const repairCostRatio = new Map<Occupancy, number[]>();
  const repairDays = new Map<Occupancy, number[]>();
  for (const occ of OCCUPANCIES) {
    const parts = ['STR', 'NSD', 'NSA'].map((g) => values(`${g}.${occ}-Cost`));
    if (parts.every((p) => p)) repairCostRatio.set(occ, [0, 1, 2, 3].map((k) => parts.reduce((s, p) => s + p![k], 0)));
    const days = values(`STR.${occ}-Time`);
    if (days) repairDays.set(occ, days);
  }
  return { fragilities, repairCostRatio, repairDays };
}
