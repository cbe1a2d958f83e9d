/**
 * Reads the HAZUS 5.1 hurricane building data (SimCenter Damage and Loss Model Library): the coupled
 * fragilities (coupled_fragility.csv), the per-damage-state loss ratios (coupled_consequence_repair.csv)
 * and HAZUS's original loss-ratio curves (original_loss_repair.csv.gz), joined by configuration ID.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { CatintelError } from '../../../errors.js';
import { parseConfigurationId } from '../domain/vulnerability/hazus-configuration.js';
import type { HazusConfiguration, LimitState } from '../domain/vulnerability/hazus-damage.js';

export const HAZUS_FILES = {
  fragility: 'coupled_fragility.csv',
  consequence: 'coupled_consequence_repair.csv',
  lossCurves: 'original_loss_repair.csv.gz',
} as const;

/**
 * A CSV line split on commas. These files quote at most one cell, the last (the loss curve "ratios|gusts"),
 * so the line splits on commas up to the quote and the quoted text is one cell.
 */
function splitCsvLine(line: string): string[] {
  const quote = line.indexOf('"');
  if (quote < 0) return line.split(',');
  const head = line.slice(0, quote).split(',');
  head[head.length - 1] = line.slice(quote + 1, line.lastIndexOf('"'));
  return head;
}

function readRows(file: string, text: string, required: string[]): { header: Map<string, number>; rows: string[][] } {
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
  const header = new Map(splitCsvLine(lines[0]).map((h, i) => [h.trim(), i]));
  for (const r of required) if (!header.has(r)) throw new CatintelError('invalid_input', `${file}: no column ${r}; give the HAZUS hurricane folder of the SimCenter library (${Object.values(HAZUS_FILES).join(', ')})`);
  return { header, rows: lines.slice(1).map(splitCsvLine) };
}

function readText(dir: string, name: string): string {
  const file = path.join(dir, name);
  if (!fs.existsSync(file)) throw new CatintelError('invalid_input', `${file} does not exist; give the HAZUS hurricane folder holding ${Object.values(HAZUS_FILES).join(', ')}`);
  const buf = fs.readFileSync(file);
  return (name.endsWith('.gz') ? zlib.gunzipSync(buf) : buf).toString('utf8');
}

/** Every configuration of the classes the model uses (essential facilities are skipped). */
export function readHazusHurricane(dir: string): HazusConfiguration[] {
  const frag = readRows(HAZUS_FILES.fragility, readText(dir, HAZUS_FILES.fragility), ['ID', 'LS1-Family', 'LS1-Theta_0', 'LS1-Theta_1', 'LS4-Theta_1']);
  const cons = readRows(HAZUS_FILES.consequence, readText(dir, HAZUS_FILES.consequence), ['ID', 'DS1-Theta_0', 'DS4-Theta_0']);
  const curves = readRows(HAZUS_FILES.lossCurves, readText(dir, HAZUS_FILES.lossCurves), ['ID', 'LossFunction-Theta_0']);

  const stateLoss = new Map<string, number[]>();
  for (const r of cons.rows) {
    const id = r[cons.header.get('ID')!].replace(/-Cost$/, '');
    stateLoss.set(id, [1, 2, 3, 4].map((k) => Number(r[cons.header.get(`DS${k}-Theta_0`)!])));
  }
  const lossCurve = new Map<string, HazusConfiguration['lossCurve']>();
  // Every curve is tabulated at the same gusts (50-250 mph by 5): parse each distinct gust list once.
  const gustLists = new Map<string, number[]>();
  for (const r of curves.rows) {
    const id = r[curves.header.get('ID')!].replace(/-Cost$/, '');
    const [ratios, speeds] = r[curves.header.get('LossFunction-Theta_0')!].split('|');
    let gustMph = gustLists.get(speeds);
    if (!gustMph) gustLists.set(speeds, (gustMph = speeds.split(',').map(Number)));
    lossCurve.set(id, { gustMph, lossRatio: ratios.split(',').map(Number) });
  }

  const out: HazusConfiguration[] = [];
  for (const r of frag.rows) {
    const id = r[frag.header.get('ID')!];
    const parsed = parseConfigurationId(id);
    if (!parsed) continue;
    const limitStates: LimitState[] = [1, 2, 3, 4].map((k) => {
      const family = r[frag.header.get(`LS${k}-Family`)!];
      if (family !== 'normal' && family !== 'lognormal') throw new CatintelError('invalid_input', `${HAZUS_FILES.fragility}: ${id} LS${k} family ${family} is neither normal nor lognormal`);
      return { family, theta: Number(r[frag.header.get(`LS${k}-Theta_0`)!]), beta: Number(r[frag.header.get(`LS${k}-Theta_1`)!]) };
    });
    const loss = stateLoss.get(id);
    const curve = lossCurve.get(id);
    if (!loss || !curve) throw new CatintelError('invalid_input', `HAZUS configuration ${id} has no ${!loss ? 'state loss ratios' : 'loss curve'}; the three files must come from the same library release`);
    out.push({ id, ...parsed, limitStates, stateLossRatio: loss, lossCurve: curve });
  }
  return out;
}
