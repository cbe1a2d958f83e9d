/**
 * OED reinsurance (ri_info, ri_scope) to Oasis RI_n/ folders, beside the direct Oasis files:
 * RI_n/fm_programme.csv, fm_profile.csv, fm_policytc.csv and fm_xref.csv for each inuring layer,
 * ri_layers.json (which priority and risk level each RI_n is) and
 * ri_inuring_priority_output_levels.json (the last RI_n of each priority, whose net is that priority's
 * result). Each folder is written under a temporary name and renamed when complete.
 */
import fs from 'node:fs';
import path from 'node:path';
import { reinsuranceLayers } from './domain/reinsurance-layers.js';
import type { ReinsuranceLayerFiles, RiskLevel } from './domain/types.js';
import { readCsvRecords } from './oed-csv.js';
import { layerCsvFiles } from './oasis-csv.js';
import { CatintelError } from '../../errors.js';

export interface ReinsuranceFilesOptions {
  /** OED ri_info.csv. */
  riInfo: string;
  /** OED ri_scope.csv. */
  riScope: string;
  /** OED location file the direct files were made from. */
  location: string;
  /** OED account file the direct files were made from. */
  account: string;
  /** Directory of the direct insurance's Oasis files: fm_summary_map.csv and fm_xref.csv are read. */
  directDir: string;
  /** Where RI_1/, RI_2/ ... and the two JSON files go (usually directDir itself). */
  outDir: string;
}

export interface ReinsuranceLayerInfo {
  index: number;
  inuringPriority: number;
  riskLevel: RiskLevel;
  /** Folder name under outDir: RI_<index>. */
  directory: string;
}

/** Builds every inuring layer from the inputs without writing anything (the loss run and tests use it). */
export function buildReinsuranceFiles(opts: Omit<ReinsuranceFilesOptions, 'outDir'>): ReinsuranceLayerFiles[] {
  const xref = readCsvRecords(path.join(opts.directDir, 'fm_xref.csv'), 'direct Oasis file');
  const directOutputs = xref.map((r, i) => {
    const v = Number(r.output);
    if (!Number.isInteger(v) || v < 1) throw new CatintelError('invalid_input', `fm_xref.csv row ${i + 2}: output '${r.output}' is not a positive whole number`);
    return v;
  });
  return reinsuranceLayers({
    riInfo: readCsvRecords(opts.riInfo, 'OED ri_info file'),
    riScope: readCsvRecords(opts.riScope, 'OED ri_scope file'),
    locations: readCsvRecords(opts.location, 'OED location file'),
    accounts: readCsvRecords(opts.account, 'OED account file'),
    summaryMap: readCsvRecords(path.join(opts.directDir, 'fm_summary_map.csv'), 'direct Oasis file'),
    directOutputs,
  });
}

export function writeReinsuranceFiles(opts: ReinsuranceFilesOptions): ReinsuranceLayerInfo[] {
  const layers = buildReinsuranceFiles(opts);
  fs.mkdirSync(opts.outDir, { recursive: true });
  const infos = layers.map((layer, i): ReinsuranceLayerInfo => {
    const directory = `RI_${i + 1}`;
    const final = path.join(opts.outDir, directory);
    const temp = path.join(opts.outDir, `.${directory}.partial-${process.pid}`);
    fs.rmSync(temp, { recursive: true, force: true });
    fs.mkdirSync(temp);
    for (const [name, text] of Object.entries(layerCsvFiles(layer))) fs.writeFileSync(path.join(temp, name), text);
    fs.rmSync(final, { recursive: true, force: true });
    fs.renameSync(temp, final);
    return { index: i + 1, inuringPriority: layer.inuringPriority, riskLevel: layer.riskLevel, directory };
  });
  const riLayers = Object.fromEntries(infos.map((l) => [String(l.index), { inuring_priority: l.inuringPriority, risk_level: l.riskLevel, directory: l.directory }]));
  const lastOfPriority: Record<string, number> = {};
  for (const l of infos) lastOfPriority[String(l.inuringPriority)] = Math.max(lastOfPriority[String(l.inuringPriority)] ?? 0, l.index);
  writeJson(path.join(opts.outDir, 'ri_layers.json'), riLayers);
  writeJson(path.join(opts.outDir, 'ri_inuring_priority_output_levels.json'), lastOfPriority);
  return infos;
}

function writeJson(file: string, value: unknown): void {
  const temp = `${file}.partial-${process.pid}`;
  fs.writeFileSync(temp, JSON.stringify(value, null, 4) + '\n');
  fs.renameSync(temp, file);
}
