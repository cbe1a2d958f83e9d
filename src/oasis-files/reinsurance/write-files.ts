/**
 * OED reinsurance (ri_info, ri_scope) to Oasis RI_n/ folders, beside the direct Oasis files:
 * RI_n/fm_programme.csv, fm_profile.csv, fm_policytc.csv and fm_xref.csv for each inuring layer,
 * ri_layers.json (which priority and risk level each RI_n is) and
 * ri_inuring_priority_output_levels.json (the last RI_n of each priority, whose net is that priority's
 * result). `reinsuranceFileSet` gives them as named texts for an output set (`oasis files` commits them
 * with the direct files); `writeReinsuranceFiles` writes them straight into a directory, each folder under
 * a temporary name renamed when complete.
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
  /** The direct files where they are not yet at their names in directDir (an output set's temporaries). */
  directFiles?: { summaryMap: string; xref: string };
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
  const xref = readCsvRecords(opts.directFiles?.xref ?? path.join(opts.directDir, 'fm_xref.csv'), 'direct Oasis file');
  const directOutputs = xref.map((r, i) => {
    const v = Number(r.output);
    if (!Number.isInteger(v) || v < 1)
      throw new CatintelError(
        'invalid_input',
        `fm_xref.csv row ${i + 2}: output '${r.output}' is not a positive whole number`,
      );
    return v;
  });
  return reinsuranceLayers({
    riInfo: readCsvRecords(opts.riInfo, 'OED ri_info file'),
    riScope: readCsvRecords(opts.riScope, 'OED ri_scope file'),
    locations: readCsvRecords(opts.location, 'OED location file'),
    accounts: readCsvRecords(opts.account, 'OED account file'),
    summaryMap: readCsvRecords(
      opts.directFiles?.summaryMap ?? path.join(opts.directDir, 'fm_summary_map.csv'),
      'direct Oasis file',
    ),
    directOutputs,
  });
}

/** A file of the reinsurance set: its path in the set (RI_1/fm_xref.csv), text and data rows. */
export interface ReinsuranceFileText {
  name: string;
  text: string;
  rows: number;
}

/** Every RI_n/ file and the two JSON files, as texts named by their paths under the output directory. */
export function reinsuranceFileSet(opts: Omit<ReinsuranceFilesOptions, 'outDir'>): {
  infos: ReinsuranceLayerInfo[];
  files: ReinsuranceFileText[];
} {
  const layers = buildReinsuranceFiles(opts);
  const files: ReinsuranceFileText[] = [];
  const infos = layers.map((layer, i): ReinsuranceLayerInfo => {
    const directory = `RI_${i + 1}`;
    for (const [name, text] of Object.entries(layerCsvFiles(layer)))
      files.push({ name: `${directory}/${name}`, text, rows: text.split('\n').length - 2 });
    return { index: i + 1, inuringPriority: layer.inuringPriority, riskLevel: layer.riskLevel, directory };
  });
  const riLayers = Object.fromEntries(
    infos.map((l) => [
      String(l.index),
      { inuring_priority: l.inuringPriority, risk_level: l.riskLevel, directory: l.directory },
    ]),
  );
  const lastOfPriority: Record<string, number> = {};
  for (const l of infos)
    lastOfPriority[String(l.inuringPriority)] = Math.max(lastOfPriority[String(l.inuringPriority)] ?? 0, l.index);
  files.push({ name: 'ri_layers.json', text: JSON.stringify(riLayers, null, 4) + '\n', rows: infos.length });
  files.push({
    name: 'ri_inuring_priority_output_levels.json',
    text: JSON.stringify(lastOfPriority, null, 4) + '\n',
    rows: Object.keys(lastOfPriority).length,
  });
  return { infos, files };
}

export function writeReinsuranceFiles(opts: ReinsuranceFilesOptions): ReinsuranceLayerInfo[] {
  const { infos, files } = reinsuranceFileSet(opts);
  fs.mkdirSync(opts.outDir, { recursive: true });
  for (const { directory } of infos) {
    const final = path.join(opts.outDir, directory);
    const temp = path.join(opts.outDir, `.${directory}.partial-${process.pid}`);
    fs.rmSync(temp, { recursive: true, force: true });
    fs.mkdirSync(temp);
    for (const f of files)
      if (f.name.startsWith(`${directory}/`))
        fs.writeFileSync(path.join(temp, f.name.slice(directory.length + 1)), f.text);
    fs.rmSync(final, { recursive: true, force: true });
    fs.renameSync(temp, final);
  }
  for (const f of files) if (!f.name.includes('/')) writeFile(path.join(opts.outDir, f.name), f.text);
  return infos;
}

function writeFile(file: string, text: string): void {
  const temp = `${file}.partial-${process.pid}`;
  fs.writeFileSync(temp, text);
  fs.renameSync(temp, file);
}
