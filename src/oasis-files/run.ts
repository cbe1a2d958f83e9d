/**
 * `catintel oasis files`: OED location (and account) files and a keys file in, Oasis input files out
 * (items, coverages, gul_summary_map, and with an account file fm_programme, fm_profile, fm_policytc,
 * fm_xref, fm_summary_map; with OED reinsurance files, RI_n/ per inuring layer). An account-only cyber
 * book (an account file with AnnualRevenue and no location file) is read as Oasis reads it: each account
 * stands where a location would, with one item per cyber coverage (7-15). The rules live in domain/;
 * this module reads, checks and writes. The files are one output set: written under temporary names,
 * renamed together, manifest.json last, so a killed run never leaves a set that looks complete.
 */
import { CatintelError } from '../errors.js';
import { readCsvColumns, type TextColumns } from './read-csv-columns.js';
import { writeOutputFiles, type OutputFile } from './write-output-set.js';
import { OutputSet } from '../lib/output-set.js';
import { reinsuranceFileSet } from './reinsurance/index.js';
import { locationIds } from './domain/location-ids.js';
import { deterministicKeys } from './domain/deterministic-keys.js';
import { KEYS_HEADER, type KeysTable } from './domain/keys-table.js';
import { gulItems, type GulItems, type LocationColumns } from './domain/gul-items.js';
import { groupIdOf, groupIdOfAccount } from './domain/pandas-hash.js';
import { accountIds, layerIds } from './domain/account-ids.js';
import {
  ACCOUNT_TERM_FIELDS,
  CONDITION_TERM_FIELDS,
  PROPERTY_ACCOUNT_FIELDS,
  REFUSED_ACCOUNT_FIELDS,
  LOCATION_TERM_FIELDS,
  STEP_POLICY_FIELDS,
  UNBUILT_CYBER_FIELDS,
  departsFromDefault,
} from './domain/financial-fields.js';
import {
  CYBER_COVERAGE_TYPES,
  CYBER_TIV_FIELD,
  MAX_COVERAGE_TYPE,
  PROPERTY_COVERAGE_TYPES,
} from './domain/coverage-types.js';
import { ALL_TERM_COLUMNS } from './domain/fm-levels.js';
import { fmProgramme, type FmItems } from './domain/fm-programme.js';
import { IntRecords, LAYER_SPAN } from './domain/fm-rows.js';
import type { RowWriter } from './row-writer.js';
import { WrittenTable } from './written-table.js';
import type { InputTables } from '../loss/io/input-files.js';
import { conditionStages } from './domain/condition-stages.js';
import { perilsCovered } from './domain/peril-groups.js';
import { hasStepPolicies, STEP_PROFILE_HEADER, triggerTypes } from './domain/step-policies.js';
import type { TermSource } from './domain/level-terms.js';

export interface OasisFilesOptions {
  /** The OED location file; absent for an account-only (cyber) book, read from the account file alone. */
  location?: string;
  account?: string;
  keys?: string;
  /**
   * The keys already in memory, as a keys file would read (instead of `keys`): a caller that has just made
   * them (an EP curve's keys lookup) need not write a file for this to read back.
   */
  keysTable?: KeysTable;
  /** Perils the deterministic keys cover when no keys file is given (OED codes or groups). */
  modelPerils?: readonly string[];
  /** OED reinsurance (ri_info and ri_scope, both or neither; needs the account file). */
  reinsurance?: { info: string; scope: string };
  out: string;
}

export interface OasisFilesResult {
  /** Exposure rows read: locations, or the accounts of an account-only book. */
  locations: number;
  items: number;
  coverages: number;
  files: { name: string; rows: number }[];
  /** RI_n/ folders written, one per inuring layer (0 without reinsurance files). */
  reinsuranceLevels: number;
  manifest: string;
}

const TIV_FIELDS = ['BuildingTIV', 'OtherTIV', 'ContentsTIV', 'BITIV'] as const;
const LOC_BASE = [
  'PortNumber',
  'AccNumber',
  'LocNumber',
  'LocPerilsCovered',
  'LocCurrency',
  'NumberOfBuildings',
  'IsAggregate',
  'CondTag',
  ...TIV_FIELDS,
];
const ACC_BASE = [
  'PortNumber',
  'AccNumber',
  'PolNumber',
  'LayerNumber',
  'AccCurrency',
  'CondTag',
  'CondNumber',
  'CondPriority',
  'CondClass',
];
/** What an account-only book's exposure is read from: its accounts, their perils, value and currencies. */
const ACCOUNT_ONLY_BASE = [
  'PortNumber',
  'AccNumber',
  'PolPerilsCovered',
  CYBER_TIV_FIELD,
  'AccCurrency',
  'AnnualRevenueCurrency',
  'LimitCurrency',
  'DedCurrency',
];

/**
 * The exposure the items are built on, one entry per row of its file: a location file's locations, or
 * the account rows of an account-only book (each account numbered and valued as Oasis does a location).
 */
interface Exposure {
  kind: 'locations' | 'accounts';
  rows: number;
  port: string[];
  acc: string[];
  /** LocNumber of each location (locations only). */
  locNumber: string[] | null;
  locId: Int32Array;
  loc: LocationColumns;
  /** The columns the site levels read: the location file's; none for an account-only book. */
  siteColumns: Map<string, string[]>;
  isAggregate: Float64Array;
  condTag: string[];
  /** LocPerilsCovered, or an account-only book's PolPerilsCovered: the perils made keys cover. */
  perilsCovered: string[];
  coverageTypes: readonly number[];
  /** Each account's currency, as read so far (the account file's must agree). */
  currencies: Map<string, string>;
}

function col(t: TextColumns, name: string): string[] {
  return t.cols.get(name) ?? new Array<string>(t.rows).fill('');
}

function num(cells: string[], name: string, file: string, fallback: number): Float64Array {
  const out = new Float64Array(cells.length);
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    if (c === '') {
      out[i] = fallback;
      continue;
    }
    const v = Number(c);
    if (Number.isNaN(v))
      throw new CatintelError(
        'invalid_parameter',
        `${file} row ${i + 2}: ${name} "${c}" is not a number; write it as a plain number`,
      );
    out[i] = v;
  }
  return out;
}

/** Refuses a financial term this command does not build into FM terms yet: the field, its row and file named. */
function refuseTerms(
  t: TextColumns,
  fields: Readonly<Record<string, number>>,
  file: string,
  why = 'is a financial term oasis files does not build into FM terms yet (see docs/loss-engine.md "From OED to Oasis files"); remove it or run the portfolio through oasislmf\'s generate-oasis-files',
): void {
  for (const [field, fallback] of Object.entries(fields)) {
    const cells = t.cols.get(field);
    if (!cells) continue;
    const i = cells.findIndex((c) => departsFromDefault(c, fallback));
    if (i >= 0) {
      throw new CatintelError('invalid_input', `${file} row ${i + 2}: ${field} = ${cells[i]} ${why}`);
    }
  }
}

/**
 * Refuses an account whose rows name more than one currency: its terms would add amounts in different
 * currencies. Accounts in different currencies stay apart up to the account (Oasis's own acceptance
 * cases hold such portfolios); summing them further is the reader's choice.
 */
function refuseMixedCurrency(
  cells: string[],
  field: string,
  file: string,
  accountOf: (i: number) => string,
  seen: Map<string, string>,
): void {
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i].toUpperCase();
    if (c === '') continue;
    const key = accountOf(i);
    const before = seen.get(key);
    if (before === undefined) seen.set(key, c);
    else if (before !== c) {
      throw new CatintelError(
        'invalid_input',
        `${file} row ${i + 2}: ${field} ${cells[i]} differs from ${before} in the same account; mixed currencies in one account are refused (its terms would add amounts in different currencies): convert the account to one currency first`,
      );
    }
  }
}

function readKeys(file: string): KeysTable {
  const names = ['LocID', 'PerilID', 'CoverageTypeID', 'AreaPerilID', 'VulnerabilityID'];
  const t = readCsvColumns(file, names, '--keys');
  const missing = names.filter((n) => !t.cols.has(n));
  if (missing.length)
    throw new CatintelError(
      'invalid_parameter',
      `the keys file has no ${missing.join(', ')} column; give an Oasis keys file (${KEYS_HEADER})`,
    );
  return {
    locId: Int32Array.from(num(col(t, 'LocID'), 'LocID', 'the keys file', NaN)),
    perilId: col(t, 'PerilID'),
    coverageTypeId: Int32Array.from(num(col(t, 'CoverageTypeID'), 'CoverageTypeID', 'the keys file', NaN)),
    areaPerilId: num(col(t, 'AreaPerilID'), 'AreaPerilID', 'the keys file', NaN),
    vulnerabilityId: num(col(t, 'VulnerabilityID'), 'VulnerabilityID', 'the keys file', NaN),
  };
}

function readLocationBook(file: string): Exposure {
  const locT = readCsvColumns(
    file,
    [...LOC_BASE, ...Object.keys(LOCATION_TERM_FIELDS), ...ALL_TERM_COLUMNS],
    '--oed-location',
  );
  for (const f of ['PortNumber', 'AccNumber', 'LocNumber'] as const) {
    if (!locT.cols.has(f))
      throw new CatintelError(
        'invalid_parameter',
        `the location file has no ${f} column; an OED location file names each location by PortNumber, AccNumber and LocNumber`,
      );
  }
  const port = col(locT, 'PortNumber');
  const acc = col(locT, 'AccNumber');
  const locNumber = col(locT, 'LocNumber');
  const locId = locationIds(port, acc, locNumber);
  const currencies = new Map<string, string>();
  refuseMixedCurrency(
    col(locT, 'LocCurrency'),
    'LocCurrency',
    'the location file',
    (i) => `${port[i]}\u0000${acc[i]}`,
    currencies,
  );
  return {
    kind: 'locations',
    rows: locT.rows,
    port,
    acc,
    locNumber,
    locId,
    loc: {
      rows: locT.rows,
      locId,
      tiv: TIV_FIELDS.map((f) => num(col(locT, f), f, 'the location file', 0)),
      numberOfBuildings: num(col(locT, 'NumberOfBuildings'), 'NumberOfBuildings', 'the location file', 1),
      groupId: Uint32Array.from({ length: locT.rows }, (_, i) => groupIdOf(acc[i], locNumber[i], port[i])),
    },
    siteColumns: locT.cols,
    isAggregate: num(col(locT, 'IsAggregate'), 'IsAggregate', 'the location file', 0),
    condTag: col(locT, 'CondTag'),
    perilsCovered: col(locT, 'LocPerilsCovered'),
    coverageTypes: PROPERTY_COVERAGE_TYPES,
    currencies,
  };
}

/**
 * An account-only book: every account row is exposure, numbered by (PortNumber, AccNumber) as Oasis
 * numbers accounts, each of its nine cyber coverages valued at the account's AnnualRevenue (the first
 * row of an account holds it, as Oasis takes the first). A property account file has no AnnualRevenue:
 * its exposure is in its location file, which is then what is missing.
 */
function readAccountOnlyBook(file: string): Exposure {
  const t = readCsvColumns(file, ACCOUNT_ONLY_BASE, '--oed-account');
  for (const f of ['PortNumber', 'AccNumber'] as const) {
    if (!t.cols.has(f))
      throw new CatintelError(
        'invalid_parameter',
        `the account file has no ${f} column; an OED account file names each account by PortNumber and AccNumber`,
      );
  }
  if (!t.cols.has(CYBER_TIV_FIELD)) {
    throw new CatintelError(
      'invalid_parameter',
      `no --oed-location given, and the account file has no ${CYBER_TIV_FIELD} column: only an account-only cyber book (its coverages valued at ${CYBER_TIV_FIELD}) runs from the account file alone; give this book's OED location file with --oed-location`,
      { errors: [{ field: 'oed_location', message: 'required for a book with locations' }] },
    );
  }
  const port = col(t, 'PortNumber');
  const acc = col(t, 'AccNumber');
  const locId = accountIds(port, acc);
  const currencies = new Map<string, string>();
  const accountOf = (i: number) => `${port[i]}\u0000${acc[i]}`;
  // Values, limits and deductibles in another currency than the account's would be added as if alike.
  for (const f of ['AccCurrency', 'AnnualRevenueCurrency', 'LimitCurrency', 'DedCurrency'])
    refuseMixedCurrency(col(t, f), f, 'the account file', accountOf, currencies);
  const revenue = num(col(t, CYBER_TIV_FIELD), CYBER_TIV_FIELD, 'the account file', 0);
  const tiv: (Float64Array | undefined)[] = new Array(MAX_COVERAGE_TYPE).fill(undefined);
  for (const c of CYBER_COVERAGE_TYPES) tiv[c - 1] = revenue;
  return {
    kind: 'accounts',
    rows: t.rows,
    port,
    acc,
    locNumber: null,
    locId,
    loc: {
      rows: t.rows,
      locId,
      tiv,
      numberOfBuildings: new Float64Array(t.rows).fill(1),
      groupId: Uint32Array.from({ length: t.rows }, (_, i) => groupIdOfAccount(acc[i], port[i])),
    },
    siteColumns: new Map(),
    isAggregate: new Float64Array(t.rows),
    condTag: new Array<string>(t.rows).fill(''),
    perilsCovered: col(t, 'PolPerilsCovered'),
    coverageTypes: CYBER_COVERAGE_TYPES,
    currencies,
  };
}

/** The id columns of the summary maps: a location's, or an account's (which has no LocNumber). */
function idHeader(e: Exposure): string {
  return e.kind === 'locations' ? 'loc_id,PortNumber,AccNumber,LocNumber,loc_idx' : 'loc_id,PortNumber,AccNumber';
}

/** Writes the id cells of exposure row r, and the comma after them. */
function writeIdCells(out: RowWriter, e: Exposure, r: number): void {
  out.int(e.locId[r]).comma().text(e.port[r]).comma().text(e.acc[r]).comma();
  if (e.kind === 'locations') out.text(e.locNumber![r]).comma().int(r).comma();
}

/** What `oasis files` makes of the OED files and keys: the exposure, its items, and each file's writer. */
interface MadeFiles {
  book: Exposure;
  items: GulItems;
  files: OutputFile[];
}

function makeFiles(opts: Omit<OasisFilesOptions, 'out'>): MadeFiles {
  if (!opts.location && !opts.account)
    throw new CatintelError(
      'invalid_parameter',
      'give the OED location file (--oed-location), or for an account-only cyber book its account file (--oed-account)',
    );
  if (opts.reinsurance && !opts.account)
    throw new CatintelError(
      'invalid_parameter',
      'reinsurance files (ri_info, ri_scope) need the OED account file: give --oed-account, whose policies the treaties cover',
    );
  if (opts.reinsurance && !opts.location)
    throw new CatintelError(
      'invalid_parameter',
      'reinsurance of an account-only book is not built yet: its treaties are matched to locations; run the book without --oed-ri-info and --oed-ri-scope',
    );
  const book = opts.location ? readLocationBook(opts.location) : readAccountOnlyBook(opts.account!);
  const { locId, loc } = book;
  const keysGiven = opts.keysTable !== undefined || opts.keys !== undefined;
  const keys = opts.keysTable
    ? opts.keysTable
    : opts.keys
      ? readKeys(opts.keys)
      : deterministicKeys(locId, book.perilsCovered, opts.modelPerils ?? ['AA1'], book.coverageTypes);
  const items = gulItems(keys, loc);
  if (items.count === 0) {
    throw new CatintelError(
      'invalid_parameter',
      book.kind === 'locations'
        ? `no item has both a key and a TIV: check that the keys' LocIDs number the locations of the location file and that their coverages have a TIV`
        : keysGiven
          ? `no item has both a key and a TIV: check that the keys' LocIDs number the accounts of the account file (by PortNumber, AccNumber), that they key cyber coverages (CoverageTypeID 7-15) and that the accounts have an ${CYBER_TIV_FIELD}`
          : `no item has both a key and a TIV: check that the accounts' PolPerilsCovered names a peril of --model-perils (${(opts.modelPerils ?? ['AA1']).join(';')}) and that the accounts have an ${CYBER_TIV_FIELD}`,
    );
  }

  const files: OutputFile[] = [
    {
      name: 'items.csv',
      header: 'item_id,coverage_id,areaperil_id,vulnerability_id,group_id',
      writeRows(out) {
        for (let i = 0; i < items.count; i++) {
          const k = items.keyRow[i];
          out
            .int(items.itemId[i])
            .comma()
            .int(items.coverageId[i])
            .comma()
            .num(keys.areaPerilId[k])
            .comma()
            .num(keys.vulnerabilityId[k])
            .comma()
            .int(loc.groupId[items.locRow[i]])
            .end();
        }
        return items.count;
      },
    },
    {
      name: 'coverages.csv',
      header: 'coverage_id,tiv',
      writeRows(out) {
        for (let c = 0; c < items.coverages; c++)
          out
            .int(c + 1)
            .comma()
            .num(items.coverageTiv[c])
            .end();
        return items.coverages;
      },
    },
    {
      name: 'gul_summary_map.csv',
      header: `${idHeader(book)},peril_id,coverage_type_id,tiv,coverage_id,item_id,building_id,layer_id,agg_id`,
      writeRows(out) {
        for (let i = 0; i < items.count; i++) {
          const r = items.locRow[i];
          const k = items.keyRow[i];
          writeIdCells(out, book, r);
          out
            .text(keys.perilId[k])
            .comma()
            .int(keys.coverageTypeId[k])
            .comma()
            .num(items.tiv[i])
            .comma()
            .int(items.coverageId[i])
            .comma()
            .int(items.itemId[i])
            .comma()
            .int(items.buildingId[i])
            .comma()
            .int(1)
            .comma()
            .int(items.itemId[i])
            .end();
        }
        return items.count;
      },
    },
  ];
  if (!keysGiven) {
    files.push({
      name: 'keys.csv',
      header: KEYS_HEADER,
      writeRows(out) {
        for (let k = 0; k < keys.locId.length; k++) {
          out
            .int(keys.locId[k])
            .comma()
            .text(keys.perilId[k])
            .comma()
            .int(keys.coverageTypeId[k])
            .comma()
            .num(keys.areaPerilId[k])
            .comma()
            .num(keys.vulnerabilityId[k])
            .end();
        }
        return keys.locId.length;
      },
    });
  }
  if (opts.account) {
    // Location terms act only on insured losses: a ground-up set is complete without them.
    files.push(...fmFiles(opts.account, book, items, keys));
  }
  return { book, items, files };
}

export async function oasisFiles(opts: OasisFilesOptions): Promise<OasisFilesResult> {
  const { book, items, files } = makeFiles(opts);
  const set = await OutputSet.open(opts.out);
  try {
    const written = writeOutputFiles(set, files);
    let reinsuranceLevels = 0;
    if (opts.reinsurance) {
      // The treaties cover the direct outputs just written: read at their temporary names, before the commit.
      const ri = reinsuranceFileSet({
        riInfo: opts.reinsurance.info,
        riScope: opts.reinsurance.scope,
        location: opts.location!,
        account: opts.account!,
        directDir: opts.out,
        directFiles: { summaryMap: set.tempPath('fm_summary_map.csv'), xref: set.tempPath('fm_xref.csv') },
      });
      for (const f of ri.files) {
        set.write(f.name, f.text, f.rows);
        written.push({ name: f.name, rows: f.rows });
      }
      reinsuranceLevels = ri.infos.length;
    }
    const manifest = await set.commit({
      command: 'oasis files',
      locations: book.rows,
      items: items.count,
      coverages: items.coverages,
      reinsurance_levels: reinsuranceLevels,
    });
    return {
      locations: book.rows,
      items: items.count,
      coverages: items.coverages,
      files: written,
      reinsuranceLevels,
      manifest,
    };
  } catch (err) {
    await set.discard();
    throw err;
  }
}

/** What `oasisInputTables` gives: the files made in memory, none written. */
export interface OasisInputTables {
  locations: number;
  items: number;
  coverages: number;
  /** By file name: each file as its readers would read it (written-table.ts). */
  tables: InputTables;
}

/**
 * `oasis files` for a caller that runs the losses next (computeLosses' inputTables): the same files,
 * kept in memory as what the loss readers would read from them, none written or parsed back.
 * Reinsurance files are not made here (their treaties read the direct files from disk).
 */
export function oasisInputTables(opts: Omit<OasisFilesOptions, 'out' | 'reinsurance'>): OasisInputTables {
  const { book, items, files } = makeFiles(opts);
  return {
    locations: book.rows,
    items: items.count,
    coverages: items.coverages,
    tables: new Map(files.map((f) => [f.name, new WrittenTable(f)])),
  };
}

function fmFiles(file: string, book: Exposure, items: GulItems, keys: KeysTable): OutputFile[] {
  const { currencies, loc, port, acc, locId } = book;
  const accT = readCsvColumns(
    file,
    [
      ...ACC_BASE,
      ...Object.keys(ACCOUNT_TERM_FIELDS),
      ...STEP_POLICY_FIELDS,
      ...ALL_TERM_COLUMNS,
      ...Object.keys(PROPERTY_ACCOUNT_FIELDS),
      ...Object.keys(UNBUILT_CYBER_FIELDS),
    ],
    '--oed-account',
  );
  if (book.kind === 'locations')
    refuseTerms(
      accT,
      REFUSED_ACCOUNT_FIELDS,
      'the account file',
      'is a cyber policy term: it acts on the cyber coverages (7-15) of an account-only book, which a book with a location file has none of; remove it, or run the cyber policies from their account file alone (no --oed-location)',
    );
  else {
    refuseTerms(
      accT,
      PROPERTY_ACCOUNT_FIELDS,
      'the account file',
      "acts on property coverages (1-4) or on locations, which an account-only cyber book has none of; remove it, or give the book's location file with --oed-location",
    );
    refuseTerms(
      accT,
      UNBUILT_CYBER_FIELDS,
      'the account file',
      'is a cyber field no FM term is built from (see docs/loss-engine.md "Account-only cyber books"); remove it or leave it blank',
    );
  }

  const aPort = col(accT, 'PortNumber');
  const aAcc = col(accT, 'AccNumber');
  refuseMixedCurrency(
    col(accT, 'AccCurrency'),
    'AccCurrency',
    'the account file',
    (i) => `${aPort[i]}\u0000${aAcc[i]}`,
    currencies,
  );
  const pol = col(accT, 'PolNumber');
  // Accounts no location names play no part (Oasis drops them before numbering anything but accounts).
  const accIdAll = accountIds(aPort, aAcc);
  const layer = layerIds(accIdAll, pol, col(accT, 'LayerNumber'));
  const rowOfAccount = new Map<string, number>();
  for (let i = 0; i < accT.rows; i++) {
    const key = `${aPort[i]}\u0000${aAcc[i]}`;
    if (!rowOfAccount.has(key)) rowOfAccount.set(key, i);
  }
  const accountOfLocation = Int32Array.from(port, (p, r) => {
    const a = rowOfAccount.get(`${p}\u0000${acc[r]}`);
    if (a === undefined)
      throw new CatintelError(
        'invalid_parameter',
        `location ${p}/${acc[r]}/${book.locNumber![r]} (location file row ${r + 2}) names account ${acc[r]} of portfolio ${p}, which the account file does not hold; add the account or correct the location`,
      );
    return accIdAll[a];
  });
  const usedAccounts = new Set(accountOfLocation);
  const accRows = Array.from({ length: accT.rows }, (_, i) => i).filter((i) => usedAccounts.has(accIdAll[i]));
  const accCols = new Map<string, string[]>();
  for (const [name, cells] of accT.cols)
    accCols.set(
      name,
      accRows.map((i) => cells[i]),
    );
  const accounts: TermSource = {
    rows: accRows.length,
    key: Int32Array.from(accRows, (i) => accIdAll[i]),
    layer: Int32Array.from(accRows, (i) => layer[i]),
    polNumber: accRows.map((i) => pol[i]),
    risks: new Float64Array(accRows.length).fill(1),
    cols: accCols,
    file: 'account file',
  };
  const isAggregate = book.isAggregate;
  const buildings = (r: number) => Math.max(1, Math.trunc(loc.numberOfBuildings[r]) || 1);
  // An account-only book has no site levels: its site terms source has no rows.
  const siteRows = book.kind === 'locations' ? book.rows : 0;
  const locations: TermSource = {
    rows: siteRows,
    key: locId.subarray(0, siteRows),
    layer: new Int32Array(siteRows).fill(1),
    polNumber: new Array<string | null>(siteRows).fill(null),
    risks: Float64Array.from({ length: siteRows }, (_, r) =>
      isAggregate[r] !== 0 ? Math.max(1, loc.numberOfBuildings[r]) : 1,
    ),
    cols: book.siteColumns,
    file: 'location file',
  };
  // Coverage types the book has no value of (a location's cyber types, an account's property types) are 0.
  const fmItems = fmItemsOf(items, keys, locId, accountOfLocation, isAggregate, (item, coverageType) => {
    const r = items.locRow[item];
    const values = loc.tiv[coverageType - 1];
    return values === undefined ? 0 : values[r] / buildings(r);
  });
  const conditions = conditionStages(accounts, { locId, accId: accountOfLocation, tag: book.condTag });
  if (!conditions)
    refuseTerms(
      accT,
      CONDITION_TERM_FIELDS,
      'the account file',
      'names no condition (CondTag, CondNumber) to apply it to',
    );
  const stepPolicies = hasStepPolicies(accounts.cols, accounts.rows, 'account file');
  const fm = fmProgramme(fmItems, locations, accounts, conditions, stepPolicies);
  // Policy number and account row of each output: its layer's first row, else the account's first; an
  // output under a condition nested at the last of several stages takes that condition's row of its layer.
  // With step policies, an output takes the first row of its layer with the step trigger type its
  // item's peril falls under (a step policy for flood may sit beside ordinary wind terms).
  const firstRowOf = new Map<string, number>();
  const rowsOfLayer = new Map<string, number[]>();
  const accTag = col(accT, 'CondTag').map((c) => (c.trim() === '' ? '0' : c.trim()));
  for (const i of accRows) {
    for (const k of [
      `${accIdAll[i]}`,
      `${accIdAll[i]}|${pol[i]}|${layer[i]}`,
      `${accIdAll[i]}|${pol[i]}|${layer[i]}|${accTag[i]}`,
    ])
      if (!firstRowOf.has(k)) firstRowOf.set(k, i);
    const k = `${accIdAll[i]}|${pol[i]}|${layer[i]}`;
    (rowsOfLayer.get(k) ?? rowsOfLayer.set(k, []).get(k)!).push(i);
  }
  const polPeril = accT.cols.get('PolPeril');
  const stt = stepPolicies ? triggerTypes(accT.cols, accT.rows, 'account file') : null;
  const rowsOfAccount = new Map<number, number[]>();
  for (const i of accRows)
    (rowsOfAccount.get(accIdAll[i]) ?? rowsOfAccount.set(accIdAll[i], []).get(accIdAll[i])!).push(i);
  const coveredBy = new Map<string, Set<string>>();
  const covers = (r: number, peril: string) => {
    if (!polPeril) return true;
    const list = polPeril[r].trim() || 'AA1';
    if (!coveredBy.has(list)) coveredBy.set(list, perilsCovered(list));
    return coveredBy.get(list)!.has(peril);
  };
  const rowForItem = (accId: number, k: string, peril: string): number | undefined => {
    if (!stt) return firstRowOf.get(k);
    const termsRow = rowsOfAccount.get(accId)?.find((r) => covers(r, peril));
    const i = termsRow === undefined ? undefined : rowsOfLayer.get(k)?.find((r) => stt[r] === stt[termsRow]);
    return i ?? firstRowOf.get(k);
  };
  // Outputs of one account, policy, layer and peril share their account row: each is looked up once.
  const outputs = fm.outputs;
  const polNumberOf = outputs.polNumber;
  const accIdx = new Int32Array(outputs.count);
  const polIds = new Map<string, number>();
  const accRowOf = new Map<number, Map<number, number>>();
  for (let o = 0; o < outputs.count; o++) {
    const item = outputs.item[o];
    const accId = fmItems.accId[item];
    const polNumber = (polNumberOf[o] ??= pol[firstRowOf.get(`${accId}`)!]);
    const layerId = outputs.layer[o];
    const tag = conditions?.lastTagOfLocation.get(fmItems.locId[item]);
    const byTag = tag === undefined ? undefined : firstRowOf.get(`${accId}|${polNumber}|${layerId}|${tag}`);
    if (byTag !== undefined) {
      accIdx[o] = byTag;
      continue;
    }
    let polId = polIds.get(polNumber);
    if (polId === undefined) {
      polId = polIds.size;
      polIds.set(polNumber, polId);
    }
    const outer = (accId * LAYER_SPAN + layerId) * 64 + fmItems.peril[item];
    let byPol = accRowOf.get(outer);
    if (byPol === undefined) {
      byPol = new Map();
      accRowOf.set(outer, byPol);
    }
    let row = byPol.get(polId);
    if (row === undefined) {
      row = rowForItem(accId, `${accId}|${polNumber}|${layerId}`, fmItems.perils[fmItems.peril[item]]) ?? NO_ROW;
      byPol.set(polId, row);
    }
    accIdx[o] = row;
  }
  return [
    {
      name: 'fm_programme.csv',
      header: 'from_agg_id,level_id,to_agg_id',
      writeRows: (out) => writeRecords(out, fm.programme),
    },
    {
      name: 'fm_policytc.csv',
      header: 'level_id,agg_id,layer_id,profile_id',
      writeRows: (out) => writeRecords(out, fm.policytc),
    },
    {
      name: 'fm_profile.csv',
      header: `profile_id,calcrule_id,deductible1,deductible2,deductible3,attachment1,limit1,share1,share2,share3${stepPolicies ? STEP_PROFILE_HEADER : ''}`,
      writeRows(out) {
        for (const line of fm.profile) out.line(line);
        return fm.profile.length;
      },
    },
    {
      name: 'fm_xref.csv',
      header: 'output,agg_id,layer_id',
      writeRows(out) {
        for (let o = 0; o < outputs.count; o++)
          out
            .int(o + 1)
            .comma()
            .int(fmItems.itemId[outputs.item[o]])
            .comma()
            .int(outputs.layer[o])
            .end();
        return outputs.count;
      },
    },
    {
      name: 'fm_summary_map.csv',
      header: `${idHeader(book)},peril_id,coverage_type_id,tiv,coverage_id,agg_id,building_id,risk_id,layer_id,PolNumber,output_id,acc_idx`,
      writeRows(out) {
        for (let o = 0; o < outputs.count; o++) {
          const i = outputs.item[o];
          const r = items.locRow[i];
          writeIdCells(out, book, r);
          out
            .text(fmItems.perils[fmItems.peril[i]])
            .comma()
            .int(fmItems.coverageType[i])
            .comma()
            .num(items.tiv[i])
            .comma()
            .int(items.coverageId[i])
            .comma()
            .int(fmItems.itemId[i])
            .comma()
            .int(fmItems.buildingId[i])
            .comma()
            .int(fmItems.riskId[i])
            .comma()
            .int(outputs.layer[o])
            .comma()
            .text(`${polNumberOf[o]}`)
            .comma()
            .int(o + 1)
            .comma();
          if (accIdx[o] !== NO_ROW) out.int(accIdx[o]);
          out.end();
        }
        return outputs.count;
      },
    },
  ];
}

/** An output with no account row (acc_idx written blank). */
const NO_ROW = -1;

/** Writes integer records one per line, comma-separated; returns how many. */
function writeRecords(out: RowWriter, records: IntRecords): number {
  const { data, width, count } = records;
  for (let r = 0; r < count; r++) {
    const o = r * width;
    out.int(data[o]);
    for (let c = 1; c < width; c++) out.comma().int(data[o + c]);
    out.end();
  }
  return count;
}

/** The items as the FM programme reads them (item index = item id less one, as gulItems numbers them). */
function fmItemsOf(
  items: GulItems,
  keys: KeysTable,
  locId: Int32Array,
  accountOfLocation: Int32Array,
  isAggregate: Float64Array,
  locationTiv: FmItems['locationTiv'],
): FmItems {
  const n = items.count;
  const perils: string[] = [];
  const perilIndex = new Map<string, number>();
  const fm: FmItems = {
    count: n,
    itemId: items.itemId,
    locId: new Int32Array(n),
    accId: new Int32Array(n),
    riskId: new Int32Array(n),
    buildingId: items.buildingId,
    coverageType: new Int32Array(n),
    peril: new Int32Array(n),
    perils,
    locationTiv,
  };
  for (let i = 0; i < n; i++) {
    const r = items.locRow[i];
    const k = items.keyRow[i];
    fm.locId[i] = locId[r];
    fm.accId[i] = accountOfLocation[r];
    fm.riskId[i] = isAggregate[r] !== 0 ? items.buildingId[i] : 1;
    fm.coverageType[i] = keys.coverageTypeId[k];
    const peril = keys.perilId[k];
    let p = perilIndex.get(peril);
    if (p === undefined) {
      p = perils.length;
      perils.push(peril);
      perilIndex.set(peril, p);
    }
    fm.peril[i] = p;
  }
  return fm;
}
