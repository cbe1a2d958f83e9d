/**
 * `catintel oasis files --oed-location L.csv [--oed-account A.csv] [--oed-ri-info I.csv --oed-ri-scope S.csv]
 * [--keys keys.csv] --out DIR`: Oasis input files from OED files, as oasislmf's generate-oasis-files writes them (docs/loss-engine.md
 * "From OED to Oasis files"). An account-only cyber book runs from `--oed-account A.csv` alone. CLI only
 * and storeless; the builder is imported lazily.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../errors.js';
import { required, str } from './params.js';
import { defineHandler } from './types.js';
import type { OasisFilesResult } from '../oasis-files/run.js';

export interface OasisFilesInput {
  location?: string;
  account?: string;
  keys?: string;
  reinsurance?: { info: string; scope: string };
  modelPerils: string[];
  out: string;
}

/**
 * --oed-ri-info and --oed-ri-scope: both (with --oed-account, whose policies the treaties cover) or neither.
 * One alone would leave half a treaty: refused by name.
 */
export function reinsuranceFiles(raw: Record<string, unknown>): { info: string; scope: string } | undefined {
  const given = (name: string) => str(raw, name) !== undefined;
  if (!given('oed_ri_info') && !given('oed_ri_scope')) return undefined;
  for (const [name, other] of [
    ['oed_ri_info', 'oed_ri_scope'],
    ['oed_ri_scope', 'oed_ri_info'],
  ] as const) {
    if (!given(other)) {
      const flag = (n: string) => `--${n.replaceAll('_', '-')}`;
      throw new CatintelError(
        'invalid_parameter',
        `${flag(name)} needs ${flag(other)}: OED reinsurance is two files, ri_info (the treaties) and ri_scope (what each covers); give both or neither`,
        { errors: [{ field: other, message: `required with ${flag(name)}` }] },
      );
    }
  }
  if (!given('oed_account')) {
    throw new CatintelError(
      'invalid_parameter',
      "--oed-ri-info and --oed-ri-scope need --oed-account: the treaties cover the account file's policies",
      { errors: [{ field: 'oed_account', message: 'required with reinsurance' }] },
    );
  }
  return {
    info: existingFile(raw, 'oed_ri_info', 'an OED ri_info CSV', true)!,
    scope: existingFile(raw, 'oed_ri_scope', 'an OED ri_scope CSV', true)!,
  };
}

/** The option `name` as an existing file's absolute path (undefined when absent and not needed). */
export function existingFile(
  raw: Record<string, unknown>,
  name: string,
  what: string,
  need: boolean,
): string | undefined {
  const value = need ? required(raw, name) : str(raw, name);
  if (value === undefined) return undefined;
  const resolved = path.resolve(value);
  let ok: boolean;
  try {
    ok = fs.statSync(resolved, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    ok = false;
  }
  if (!ok)
    throw new CatintelError(
      'invalid_parameter',
      `--${name.replaceAll('_', '-')} ${value} is not a file; give ${what}`,
      { errors: [{ field: name, message: 'not a file' }] },
    );
  return resolved;
}

export const oasisFiles = defineHandler<OasisFilesInput, OasisFilesResult>({
  name: 'oasis.files',
  summary: 'Write Oasis input files (items, coverages, fm_*, summary maps) from OED location and account files',
  storeless: true,
  cli: {
    command: ['oasis', 'files'],
    options: [
      {
        flags: '--oed-location <file>',
        description:
          'the OED location file (CSV); omit it only for an account-only cyber book (AnnualRevenue on the account rows)',
      },
      {
        flags: '--oed-account <file>',
        description:
          'the OED account file (CSV); without it only the ground-up files are written; alone, an account-only cyber book',
      },
      {
        flags: '--oed-ri-info <file>',
        description:
          'the OED reinsurance info file (CSV), with --oed-ri-scope and --oed-account: one RI_n/ folder per inuring layer is written',
      },
      { flags: '--oed-ri-scope <file>', description: 'the OED reinsurance scope file (CSV), with --oed-ri-info' },
      {
        flags: '--keys <file>',
        description:
          'an Oasis keys file (LocID,PerilID,CoverageTypeID,AreaPerilID,VulnerabilityID), locations numbered as Oasis numbers them; without it, one key per covered peril and coverage type is made and written as keys.csv',
      },
      {
        flags: '--model-perils <codes>',
        description: "with no --keys: the OED perils or peril groups the made keys cover, ';'-separated (default AA1)",
      },
      { flags: '--out <dir>', description: 'where the Oasis input files are written (created if missing)' },
    ],
    examples: [
      'catintel oasis files --oed-location location.csv --oed-account account.csv --keys keys.csv --out input',
      'catintel oasis files --oed-location location.csv --oed-account account.csv --model-perils WTC --out input',
      'catintel oasis files --oed-location location.csv --oed-account account.csv --oed-ri-info ri_info.csv --oed-ri-scope ri_scope.csv --keys keys.csv --out input',
      'catintel oasis files --oed-account cyber_account.csv --model-perils CSB --out input',
    ],
    paths: ['oed_location', 'oed_account', 'oed_ri_info', 'oed_ri_scope', 'keys', 'out'],
  },
  parse(raw) {
    if (str(raw, 'oed_location') === undefined && str(raw, 'oed_account') === undefined) {
      throw new CatintelError(
        'invalid_parameter',
        'give --oed-location FILE (the OED location file), or for an account-only cyber book --oed-account FILE alone',
        { errors: [{ field: 'oed_location', message: 'required' }] },
      );
    }
    const location = existingFile(raw, 'oed_location', 'an OED location CSV', false);
    const account = existingFile(raw, 'oed_account', 'an OED account CSV', false);
    const keys = existingFile(raw, 'keys', 'an Oasis keys CSV', false);
    const reinsurance = reinsuranceFiles(raw);
    const outRaw = required(raw, 'out');
    if (outRaw.includes('\0'))
      throw new CatintelError('invalid_parameter', '--out: a directory name cannot hold a NUL byte', {
        errors: [{ field: 'out', message: 'NUL byte' }],
      });
    const perilsRaw = str(raw, 'model_perils');
    if (perilsRaw !== undefined && keys !== undefined) {
      throw new CatintelError(
        'invalid_parameter',
        '--model-perils applies to the keys this command makes; drop it when giving --keys',
        { errors: [{ field: 'model_perils', message: 'with --keys' }] },
      );
    }
    const modelPerils = (perilsRaw ?? 'AA1')
      .split(';')
      .map((s) => s.trim().toUpperCase())
      .filter(Boolean);
    return { location, account, keys, reinsurance, modelPerils, out: path.resolve(outRaw) };
  },
  async run(_ctx, input) {
    const { oasisFiles: build } = await import('../oasis-files/run.js');
    const result = await build({
      location: input.location,
      account: input.account,
      keys: input.keys,
      reinsurance: input.reinsurance,
      modelPerils: input.modelPerils,
      out: input.out,
    });
    return { body: result };
  },
});
