/**
 * `catintel oasis run --model DIR (--input DIR | --oed-location L.csv [--oed-account A.csv]
 * [--oed-ri-info I.csv --oed-ri-scope S.csv] --keys K.csv | --oed-account A.csv --keys K.csv)
 * --out DIR [--settings analysis_settings.json] [--ord-format csv|parquet|arrow]`: the Oasis-compatible loss kernel (docs/loss-engine.md)
 * on an Oasis model and an Oasis input directory, or on OED files turned into one first (as `oasis files`
 * writes it), writing ORD files. CLI only and storeless: it reads and writes files, never the store, so
 * it runs beside a server. The kernel is imported lazily so other commands do not load it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CatintelError } from '../errors.js';
import { existingFile, reinsuranceFiles } from './oasis-files.js';
import { required, str } from './params.js';
import { defineHandler } from './types.js';
import type { OasisRunResult } from '../loss/run.js';
import { packageKeysLookup, packageModelOf, type PackageModel } from '../models/package-kind.js';

/** OED files to make the Oasis input from: a location file (with its account file), or an account-only cyber book's account file. */
interface OedInput {
  location?: string;
  account?: string;
  reinsurance?: { info: string; scope: string };
  /** The keys file; unset: the model package's own keys lookup makes them. */
  keys?: string;
}

export interface OasisRunInput {
  model: string;
  /** The Oasis input directory, or the OED files to make one from. */
  input: string | OedInput;
  out: string;
  settings?: string;
  allocRule: 0 | 1;
  /** Unset: each summary's ord_output.parquet_format decides. */
  ordFormat?: 'csv' | 'parquet' | 'arrow';
}

/** stat that answers undefined for a path the OS cannot even look up (a NUL byte, a name too long). */
function statOf(p: string): fs.Stats | undefined {
  try {
    return fs.statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function dir(raw: Record<string, unknown>, name: string, what: string): string {
  const value = required(raw, name);
  const resolved = path.resolve(value);
  if (!statOf(resolved)?.isDirectory()) {
    throw new CatintelError('invalid_parameter', `--${name} ${value} is not a directory; give ${what}`, {
      errors: [{ field: name, message: 'not a directory' }],
    });
  }
  return resolved;
}

export const oasisRun = defineHandler<OasisRunInput, OasisRunResult>({
  name: 'oasis.run',
  summary: 'Run the Oasis-compatible loss kernel on an Oasis model and input directory and write ORD outputs',
  storeless: true,
  cli: {
    command: ['oasis', 'run'],
    options: [
      {
        flags: '--model <dir>',
        description:
          "the Oasis model's model_data directory (events, occurrence, footprint, vulnerability, damage_bin_dict, returnperiods CSVs)",
      },
      {
        flags: '--input <dir>',
        description: 'the Oasis input directory (items, coverages, gul_summary_map, fm_* CSVs)',
      },
      {
        flags: '--oed-location <file>',
        description:
          'instead of --input: the OED location file, turned into Oasis input files as `oasis files` writes them',
      },
      {
        flags: '--oed-account <file>',
        description:
          'with --oed-location: the OED account file (policy, layer and account terms); alone (with --keys): an account-only cyber book',
      },
      {
        flags: '--oed-ri-info <file>',
        description:
          'with --oed-location and --oed-account: the OED reinsurance info file; its RI_n files are made with the input, and the settings (ri_output, rl_output) give the ri and rl perspectives',
      },
      { flags: '--oed-ri-scope <file>', description: 'with --oed-ri-info: the OED reinsurance scope file' },
      {
        flags: '--keys <file>',
        description:
          "with --oed-location: the model's keys for these locations (LocID,PerilID,CoverageTypeID,AreaPerilID,VulnerabilityID; not needed when --model is a `catintel model build` package, whose own lookup makes them); with --oed-account alone, for its accounts",
      },
      { flags: '--out <dir>', description: 'where the ORD output files are written (created if missing)' },
      {
        flags: '--settings <file>',
        description:
          'analysis_settings.json: event set, summaries and their ord_output (default: gul and il melt, selt, ept, palt)',
      },
      {
        flags: '--ord-format <format>',
        description:
          "csv, parquet or arrow: every ORD table in that format (Parquet, and Arrow IPC files: the same names and columns, int32 and float32 as oasislmf writes them); default: as each summary's ord_output parquet_format says, else csv",
      },
      {
        flags: '--gul-alloc-rule <n>',
        description:
          'ground-up allocation: 1 caps the perils on a coverage at its TIV (default, as Oasis), 0 leaves them uncapped',
      },
    ],
    examples: [
      'catintel oasis run --model piwind/model_data --input piwind/input --out out --settings analysis_settings.json',
      'catintel oasis run --model model_data --input input --out out --json',
      'catintel oasis run --model model_data --input input --out out --settings analysis_settings.json --ord-format parquet',
      'catintel oasis run --model model_data --oed-location location.csv --oed-account account.csv --keys keys.csv --out out --settings analysis_settings.json',
      'catintel oasis run --model models/hurricane --oed-location location.csv --out out',
    ],
    paths: ['model', 'input', 'oed_location', 'oed_account', 'oed_ri_info', 'oed_ri_scope', 'keys', 'out', 'settings'],
  },
  parse(raw) {
    const model = dir(raw, 'model', "the Oasis model's model_data directory");
    const input = inputOf(raw);
    const outRaw = required(raw, 'out');
    if (outRaw.includes('\0'))
      throw new CatintelError('invalid_parameter', '--out: a directory name cannot hold a NUL byte', {
        errors: [{ field: 'out', message: 'NUL byte' }],
      });
    const out = path.resolve(outRaw);
    const settingsRaw = str(raw, 'settings');
    let settings: string | undefined;
    if (settingsRaw !== undefined) {
      settings = path.resolve(settingsRaw);
      if (!statOf(settings)?.isFile()) {
        throw new CatintelError(
          'invalid_parameter',
          `--settings ${settingsRaw} is not a file; give an Oasis analysis_settings.json`,
          { errors: [{ field: 'settings', message: 'not a file' }] },
        );
      }
    }
    const rule = str(raw, 'gul_alloc_rule') ?? '1';
    if (rule !== '0' && rule !== '1') {
      throw new CatintelError(
        'invalid_parameter',
        `--gul-alloc-rule ${rule} is not supported; use 1 (cap perils at the coverage TIV, as Oasis) or 0 (uncapped)`,
        { errors: [{ field: 'gul_alloc_rule', message: '0 or 1' }] },
      );
    }
    const format = str(raw, 'ord_format');
    if (format !== undefined && format !== 'csv' && format !== 'parquet' && format !== 'arrow') {
      throw new CatintelError(
        'invalid_parameter',
        `--ord-format ${format} is not supported; use csv, parquet or arrow`,
        { errors: [{ field: 'ord_format', message: 'csv, parquet or arrow' }] },
      );
    }
    return { model, input, out, settings, allocRule: rule === '1' ? 1 : 0, ordFormat: format };
  },
  async run(ctx, input) {
    const { runOasis } = await import('../loss/run.js');
    const made = typeof input.input === 'string' ? undefined : await oasisInputFromOed(input.input, input.model);
    try {
      const result = await runOasis({
        modelDir: input.model,
        inputDir: made ?? (input.input as string),
        outDir: input.out,
        settingsFile: input.settings,
        allocRule: input.allocRule,
        ordFormat: input.ordFormat,
        progress: (done, total, message) => ctx.progress({ task: 'oasis run', done, total, message }),
      });
      const notes = result.skipped.map((s) => `not written: ${s.output}: ${s.reason}`);
      return { body: result, notes };
    } finally {
      if (made) fs.rmSync(path.dirname(made), { recursive: true, force: true });
    }
  },
});

/**
 * --input, or the OED files (with the model's keys) to make the input from: exactly one of the two. The
 * OED files are a location file (with its account file), or an account file alone for an account-only
 * cyber book.
 */
function inputOf(raw: Record<string, unknown>): OasisRunInput['input'] {
  const hasLocation = str(raw, 'oed_location') !== undefined;
  const oed = hasLocation || str(raw, 'oed_account') !== undefined;
  if (oed === (str(raw, 'input') !== undefined)) {
    throw new CatintelError(
      'invalid_parameter',
      'give either --input DIR (Oasis input files) or --oed-location FILE with --keys FILE (OED, turned into Oasis input files; an account-only cyber book: --oed-account FILE with --keys FILE)',
      { errors: [{ field: 'input', message: 'one of --input or --oed-location' }] },
    );
  }
  if (!oed) {
    if (['oed_ri_info', 'oed_ri_scope', 'keys'].some((n) => str(raw, n) !== undefined)) {
      throw new CatintelError(
        'invalid_parameter',
        '--oed-account, --oed-ri-info, --oed-ri-scope and --keys go with --oed-location; with --input the Oasis input directory holds the account terms and items',
        { errors: [{ field: 'input', message: 'OED options without --oed-location' }] },
      );
    }
    return dir(raw, 'input', 'the Oasis input directory (items.csv, coverages.csv, fm_*.csv)');
  }
  // A catintel model package (hurricane, earthquake) carries its own keys lookup (a location's cell and its OED codes).
  const isPackage = hasLocation && packageModelOf(path.resolve(str(raw, 'model') ?? '')) !== undefined;
  if (str(raw, 'keys') === undefined && !isPackage) {
    const flag = hasLocation ? '--oed-location' : '--oed-account';
    throw new CatintelError(
      'invalid_parameter',
      `${flag} needs --keys FILE: the model's keys for these ${hasLocation ? 'locations' : 'accounts'} (LocID,PerilID,CoverageTypeID,AreaPerilID,VulnerabilityID; see \`catintel oasis files --help\`)`,
      { errors: [{ field: 'keys', message: `required with ${flag}` }] },
    );
  }
  return {
    location: existingFile(raw, 'oed_location', 'an OED location CSV', false),
    account: existingFile(raw, 'oed_account', 'an OED account CSV', false),
    reinsurance: reinsuranceFiles(raw),
    keys: existingFile(raw, 'keys', 'an Oasis keys CSV', !isPackage),
  };
}

/** The Oasis input files made from OED in a temporary directory (removed after the run); its path. */
async function oasisInputFromOed(oed: OedInput, model: string): Promise<string> {
  const { oasisFiles } = await import('../oasis-files/run.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catintel-oasis-input-'));
  const input = path.join(dir, 'input');
  try {
    const keys = oed.keys ?? (await packageKeys(model, oed.location!, dir));
    await oasisFiles({ location: oed.location, account: oed.account, reinsurance: oed.reinsurance, keys, out: input });
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return input;
}

/**
 * The model package's keys for the book, written in the run's temporary directory. A location the
 * model cannot place has no key (so no item); a vulnerability the package lacks is an error naming the fix.
 */
async function packageKeys(model: string, location: string, dir: string): Promise<string> {
  const kind: PackageModel = packageModelOf(model) ?? 'hurricane';
  const { bookKeys, missingVulnerabilities, writeBookKeys } = await packageKeysLookup(kind);
  const { keys, errors } = bookKeys(model, location);
  if (keys.length === 0) {
    throw new CatintelError(
      'invalid_input',
      `no location of ${location} is inside the ${kind} model: ${errors[0]?.message ?? 'the file holds no location'}; see \`catintel model keys\` for every location's reason`,
    );
  }
  const missing = missingVulnerabilities(model, keys);
  if (missing.length) {
    throw new CatintelError(
      'invalid_input',
      `the model package ${model} holds no vulnerability ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''} for this book; rebuild it with \`catintel model build ${kind} --oed-location ${location} --out ${model}\``,
    );
  }
  return writeBookKeys(path.join(dir, 'keys.csv'), keys, errors).keys;
}
