/**
 * `catintel oasis files --oed-location L.csv [--oed-account A.csv] [--keys keys.csv] --out DIR`: Oasis
 * input files from OED files, as oasislmf's generate-oasis-files writes them (docs/loss-engine.md
 * "From OED to Oasis files"). CLI only and storeless; the builder is imported lazily.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../errors.js';
import { required, str } from './params.js';
import { defineHandler } from './types.js';
import type { OasisFilesResult } from '../oasis-files/run.js';

export interface OasisFilesInput {
  location: string;
  account?: string;
  keys?: string;
  modelPerils: string[];
  out: string;
}

/** The option `name` as an existing file's absolute path (undefined when absent and not needed). */
export function existingFile(raw: Record<string, unknown>, name: string, what: string, need: boolean): string | undefined {
  const value = need ? required(raw, name) : str(raw, name);
  if (value === undefined) return undefined;
  const resolved = path.resolve(value);
  let ok = false;
  try {
    ok = fs.statSync(resolved, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    ok = false;
  }
  if (!ok) throw new CatintelError('invalid_parameter', `--${name.replaceAll('_', '-')} ${value} is not a file; give ${what}`, { errors: [{ field: name, message: 'not a file' }] });
  return resolved;
}

export const oasisFiles = defineHandler<OasisFilesInput, OasisFilesResult>({
  name: 'oasis.files',
  summary: 'Write Oasis input files (items, coverages, fm_*, summary maps) from OED location and account files',
  storeless: true,
  cli: {
    command: ['oasis', 'files'],
    options: [
      { flags: '--oed-location <file>', description: 'the OED location file (CSV)' },
      { flags: '--oed-account <file>', description: 'the OED account file (CSV); without it only the ground-up files are written' },
      { flags: '--keys <file>', description: 'an Oasis keys file (LocID,PerilID,CoverageTypeID,AreaPerilID,VulnerabilityID), locations numbered as Oasis numbers them; without it, one key per covered peril and coverage type is made and written as keys.csv' },
      { flags: '--model-perils <codes>', description: "with no --keys: the OED perils or peril groups the made keys cover, ';'-separated (default AA1)" },
      { flags: '--out <dir>', description: 'where the Oasis input files are written (created if missing)' },
    ],
    examples: [
      'catintel oasis files --oed-location location.csv --oed-account account.csv --keys keys.csv --out input',
      'catintel oasis files --oed-location location.csv --oed-account account.csv --model-perils WTC --out input',
    ],
    paths: ['oed_location', 'oed_account', 'keys', 'out'],
  },
  parse(raw) {
    const location = existingFile(raw, 'oed_location', 'an OED location CSV', true)!;
    const account = existingFile(raw, 'oed_account', 'an OED account CSV', false);
    const keys = existingFile(raw, 'keys', 'an Oasis keys CSV', false);
    const outRaw = required(raw, 'out');
    if (outRaw.includes('\0')) throw new CatintelError('invalid_parameter', '--out: a directory name cannot hold a NUL byte', { errors: [{ field: 'out', message: 'NUL byte' }] });
    const perilsRaw = str(raw, 'model_perils');
    if (perilsRaw !== undefined && keys !== undefined) {
      throw new CatintelError('invalid_parameter', '--model-perils applies to the keys this command makes; drop it when giving --keys', { errors: [{ field: 'model_perils', message: 'with --keys' }] });
    }
    const modelPerils = (perilsRaw ?? 'AA1').split(';').map((s) => s.trim().toUpperCase()).filter(Boolean);
    return { location, account, keys, modelPerils, out: path.resolve(outRaw) };
  },
  async run(_ctx, input) {
    const { oasisFiles: build } = await import('../oasis-files/run.js');
    const result = build({ location: input.location, account: input.account, keys: input.keys, modelPerils: input.modelPerils, out: input.out });
    return { body: result };
  },
});
