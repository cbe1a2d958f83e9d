/**
 * A book's losses from the model packages: for each package that models a peril asked for, its keys
 * lookup on the OED location file, the Oasis input files made from the OED files and those keys
 * (`oasis files`), and the loss kernel (`oasis run`'s computeLosses) over the package's events:
 * ground-up and insured records per event, sampled. The packages' event sets are independent, so their
 * records are put side by side (each package's event ids after the previous one's) on one occurrence:
 * period p of every package is the same simulated year. The Oasis input files go to the kernel in memory
 * (nothing reads them after it); what is written (vulnerabilities a package lacks) goes under `workDir`,
 * which the caller removes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../errors.js';
import type { Peril } from '../domain/scoring/perils.js';
import type { SummaryRecords } from '../loss/domain/elt.js';
import { paltRows } from '../loss/domain/ept-tables.js';
import type { Occurrence } from '../loss/domain/types.js';
import type { RunSettings } from '../loss/settings.js';
import type { KeysTable } from '../oasis-files/domain/keys-table.js';
import type { KernelPool } from '../loss/kernel-pool.js';
import type { InputTables } from '../loss/io/input-files.js';
import type { RunInput } from '../loss/run.js';
import { copyOfCarry, type EventCarry } from '../loss/domain/event-carry.js';
import { forgetCsvColumnsIn } from '../oasis-files/written-csv-columns.js';
import { oedCodeOf, type ModelPackage, type PackageKeys } from './model-packages.js';
import { packageWithVulnerabilities } from './package-overlay.js';

export interface BookRunOptions {
  location: string;
  /**
   * The OED account file. Without one the book carries no financial terms (a stored portfolio: TIVs, no
   * policies, no location terms): the run makes no financial files and computes the ground-up losses
   * alone, which are then its insured losses too (the financial module's answer to a termless programme).
   */
  account?: string;
  /** The folder holding each package's folder. */
  modelsDir: string;
  /** The shared public data the packages are built from (for vulnerabilities a package lacks). */
  dataDir: string;
  /** The modelled perils asked for (each has a package). */
  packages: { pkg: ModelPackage; perils: Peril[] }[];
  /** Periods (years) to run; unset: every year of the packages (the fewest, when they differ). */
  years?: number;
  samples: number;
  seed: number;
  workDir: string;
  progress?: (message: string) => void;
  /** Keep each package's keys in its PackageRun (a live event's TIV in the footprint reads them). */
  keepKeys?: boolean;
  /** Packages' keys and input tables made already (preparePackage), used instead of making them here. */
  prepared?: PreparedPackage[];
  /** Kernel threads the caller started (and closes): a live event's, started while its footprints are made. */
  pool?: KernelPool;
  /**
   * The book in chunks of whole locations, run one after another in bounded memory (`location` is then
   * not read): each chunk's keys, input files and kernel run, the ground-up sums carried from chunk to
   * chunk, so that the records are those of one pass to the bit. A stored book only: no account.
   */
  chunks?: BookChunks;
}

/**
 * A book's locations as consecutive chunks, in the book's order. Each chunk's location file numbers its
 * locations from 1 (as Oasis numbers a file's), and no location number is in two chunks.
 */
export interface BookChunks {
  count: number;
  /** Writes chunk `index` (0 first; asked for in order) as an OED location file in `dir`: its path. */
  write(index: number, dir: string): Promise<string>;
}

/** What one package did for the book. */
export interface PackageRun {
  folder: string;
  dir: string;
  perils: Peril[];
  /** From the package's manifest. */
  model: string;
  years: number;
  seed: number;
  events: number;
  /** With `keepKeys`: the package's keys lookup on the book, every peril of it (a large book's costs seconds: made once). */
  keys?: PackageKeys;
  /**
   * Locations the package keyed, and those it could not place, with the first one's reason (counts, not
   * lists: half of a ten-million-location book may be out of a package's reach).
   */
  locationsKeyed: number;
  locationsNotReached: number;
  notReachedReason: string | null;
  /** Ground-up and insured AAL per peril (sampled when samples > 0, else the analytical mean). */
  aalByPeril: Record<string, { gul: number; il: number }>;
  /** Each peril's own records (a live event's loss band by peril reads them event by event). */
  recordsByPeril: Record<string, { gul: SummaryRecords; il: SummaryRecords }>;
}

export interface BookLosses {
  gul: SummaryRecords;
  il: SummaryRecords;
  occurrence: Occurrence;
  samples: number;
  packages: PackageRun[];
  /** Locations some package keyed. */
  locationsKeyed: number;
}

const SUMMARY = [{ id: 1, ordOutput: {} }];

/** The item-events a book's kernel run makes at most: its keys times its events and samples. */
export function bookWork(events: number, keys: number, samples: number): number {
  return keys * events * Math.max(1, samples);
}

/** A book's run: ground-up and, with terms (an account file), insured; one summary over all risks. */
function bookSettings(samples: number, insured: boolean): RunSettings {
  return { gul: SUMMARY, il: insured ? SUMMARY : [], ri: [], rl: [], intermediatePriorities: [], samples };
}

/** Where a run's input files would be (every one it reads is in its tables). */
const inputDirOf = (workDir: string, pkg: ModelPackage, name: string) =>
  path.join(workDir, `${pkg.folder}-${name}`, 'input');

interface PackageInfo {
  model: string;
  years: number;
  seed: number;
  events: number;
}

/** Whether `<models>/<folder>` holds a built package (its marker, and the manifest its build writes last). */
export function packageBuilt(pkg: ModelPackage, modelsDir: string): boolean {
  const dir = path.join(modelsDir, pkg.folder);
  return fs.existsSync(path.join(dir, pkg.marker)) && fs.existsSync(path.join(dir, 'manifest.json'));
}

/** The package's manifest (written last by its build): refused with the build command when missing. */
export function packageInfo(pkg: ModelPackage, modelsDir: string): { dir: string; info: PackageInfo } {
  const dir = path.join(modelsDir, pkg.folder);
  const manifest = path.join(dir, 'manifest.json');
  if (!packageBuilt(pkg, modelsDir)) {
    throw new CatintelError(
      'unavailable',
      `no ${pkg.folder} model package in ${dir}, which ${pkg.perils.join(' and ')} losses are computed with; build it with \`${pkg.build.command} --out ${dir}\` (${pkg.build.takes})`,
    );
  }
  const m = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
    model?: string;
    years?: number;
    seed?: number;
    events?: number;
  };
  return {
    dir,
    info: {
      model: String(m.model ?? pkg.folder),
      years: Number(m.years),
      seed: Number(m.seed),
      events: Number(m.events),
    },
  };
}

export async function runBook(o: BookRunOptions): Promise<BookLosses> {
  // Threads for the kernel, started once a package's keys tell how large its run may be (kernel-pool.ts).
  const { KernelPool } = await import('../loss/kernel-pool.js');
  let pool: KernelPool | undefined;
  try {
    return await runBookOn(o, (atMost) => o.pool ?? (pool ??= atMost > 1 ? new KernelPool(atMost - 1) : undefined));
  } finally {
    pool?.close();
  }
}

async function runBookOn(
  o: BookRunOptions,
  kernelPool: (threadsAtMost: number) => KernelPool | undefined,
): Promise<BookLosses> {
  const [{ computeLosses }, { records }, { threadsForAtMost }, { carriedRecords }] = await Promise.all([
    import('../loss/run.js'),
    import('../loss/kernel.js'),
    import('../loss/kernel-threads.js'),
    import('../loss/domain/event-carry.js'),
  ]);
  const found = o.packages.map((p) => ({ ...p, ...packageInfo(p.pkg, o.modelsDir) }));
  // No package to run (no peril asked for has one): no years either, unless asked for.
  const packageYears = found.length ? Math.min(...found.map((f) => f.info.years)) : 0;
  for (const f of found) {
    if (o.years !== undefined && o.years > f.info.years) {
      throw new CatintelError(
        'invalid_parameter',
        `--years ${o.years}: the ${f.pkg.folder} model package in ${f.dir} holds ${f.info.years} years; give at most ${f.info.years}, or build a longer one with \`${f.pkg.build.command} --years ${o.years} --out ${f.dir}\``,
        {
          errors: [{ field: 'years', message: `at most ${f.info.years}` }],
        },
      );
    }
  }
  const periods = o.years ?? packageYears;
  const settings = bookSettings(o.samples, o.account !== undefined);
  const chunked = o.chunks !== undefined;
  if (chunked && (o.account !== undefined || o.keepKeys || o.prepared))
    throw new Error('a book run in chunks is a stored book: no account, no keys kept, nothing prepared');
  const chunks: BookChunks = o.chunks ?? { count: 1, write: async () => o.location };

  /** Each package's run, and (in chunks) the sums its kernel runs carry: `all` (its perils together) and one per peril. */
  const byPackage = found.map((f) => ({
    f,
    run: {
      folder: f.pkg.folder,
      dir: f.dir,
      perils: f.perils,
      ...f.info,
      locationsKeyed: 0,
      locationsNotReached: 0,
      notReachedReason: null,
      aalByPeril: Object.fromEntries(f.perils.map((p) => [p, { gul: 0, il: 0 }])),
      recordsByPeril: {},
    } as PackageRun,
    carries: new Map<string, { state?: EventCarry }>(),
    occurrence: undefined as Occurrence | undefined,
    keyedPerils: new Set<Peril>(),
    split: false,
  }));
  let keyedAll = 0;
  const parts: { gul: SummaryRecords; il: SummaryRecords; occurrence: Occurrence }[] = [];
  const groupMax = chunked && o.seed !== 1 ? await largestGroupsOver(o, chunks) : undefined;
  for (let c = 0; c < chunks.count; c++) {
    const chunkDir = chunked ? path.join(o.workDir, `chunk-${c + 1}`) : o.workDir;
    if (chunked) {
      fs.mkdirSync(chunkDir, { recursive: true });
      o.progress?.(`locations, chunk ${c + 1} of ${chunks.count}`);
    }
    const location = await chunks.write(c, chunkDir);
    const co = { ...o, location, workDir: chunkDir };
    // A location keyed by several packages counts once; a chunk's locations are in no other chunk.
    const keyedHere = new Set<number>();
    for (const p of byPackage) {
      const { f, run } = p;
      // A large run's threads start once the keys are known, and read the package's damage side while this
      // thread checks the vulnerabilities and makes the input files (the run's item-events are at most its
      // keys times its events and samples).
      let pool: KernelPool | undefined;
      const startThreads = (keys: PackageKeys['keys']) => {
        pool = kernelPool(threadsForAtMost(f.info.events, bookWork(f.info.events, keys.length, o.samples)));
        void pool?.damageModel(f.dir);
      };
      const given = o.prepared?.find((x) => x.folder === f.pkg.folder);
      const prepared = given ?? (await preparePackage(f.pkg, f.perils, f.dir, co, startThreads));
      const { keys, all } = prepared;
      if (given && keys.length) startThreads(keys);
      const codes = new Set(f.perils.map(oedCodeOf));
      const notReached = new Map<number, string>();
      for (const e of all.errors)
        if (codes.has(e.perilId) && !notReached.has(e.locId)) notReached.set(e.locId, e.message);
      const keyed = new Set(keys.map((k) => k.locId));
      for (const id of keyed) keyedHere.add(id);
      run.locationsKeyed += keyed.size;
      run.locationsNotReached += notReached.size;
      run.notReachedReason ??= notReached.values().next().value ?? null;
      if (o.keepKeys) run.keys = all;
      if (keys.length === 0) continue;
      // A book run on the package with its vulnerabilities added reads that one's damage side instead.
      const modelDir = prepared.extraVulnerabilities
        ? packageWithVulnerabilities(
            f.dir,
            prepared.extraVulnerabilities,
            path.join(chunkDir, `${f.pkg.folder}-package`),
          )
        : f.dir;
      if (modelDir !== f.dir) void pool?.damageModel(modelDir);
      // One kernel run for the perils together (their losses in one event add up before the insurance
      // terms); a package of several perils asked for runs once more per peril for the split by peril.
      // The input files are handed to the kernel as the tables it would read from them: none is written.
      // In chunks, each run adds to its own carried sums.
      const losses = async (tables: InputTables, name: string, runInput?: RunInput) => {
        o.progress?.(`${f.pkg.folder}: losses of ${periods.toLocaleString('en-US')} years`);
        let carry = p.carries.get(name);
        if (chunked && !carry) p.carries.set(name, (carry = {}));
        const r = await computeLosses({
          modelDir,
          inputDir: inputDirOf(chunkDir, f.pkg, name),
          inputTables: tables,
          runInput,
          settings,
          allocRule: 1,
          samples: o.samples,
          periods: periods === f.info.years ? undefined : periods,
          seed: o.seed,
          pool,
          carry,
          groupMax: groupMax?.get(`${f.pkg.folder}/${name}`),
        });
        p.occurrence = r.occurrence;
        // A book without terms: its insured losses are its ground-up ones (the same records, read only).
        const il = o.account === undefined ? r.gul : (r.il ?? records(0, o.samples));
        return { gul: r.gul, il, occurrence: r.occurrence };
      };
      const perils = f.perils.filter((x) => keys.some((k) => k.perilId === oedCodeOf(x)));
      if (chunked) splitFrom(p, perils, groupMax);
      for (const x of perils) p.keyedPerils.add(x);
      const together = await losses(prepared.tables, 'all', prepared.runInput);
      if (!chunked) parts.push(together);
      for (const x of perils) {
        if (chunked ? !p.split : perils.length === 1) {
          if (!chunked) perilLosses(run, x, together);
          continue;
        }
        const one = await losses(
          await inputTablesOf(
            keys.filter((k) => k.perilId === oedCodeOf(x)),
            co,
            f.pkg,
          ),
          x,
        );
        if (!chunked) perilLosses(run, x, one);
      }
    }
    keyedAll += keyedHere.size;
    if (chunked) forgetChunk(chunkDir);
  }
  if (chunked) {
    // The carried sums are the records one pass makes, once every chunk has run.
    const carried = (slot: { state?: EventCarry } | undefined) =>
      slot?.state ? carriedRecords(slot.state, records(slot.state.events.length, o.samples)) : records(0, o.samples);
    for (const p of byPackage) {
      if (!p.occurrence) continue;
      const together = carried(p.carries.get('all'));
      const whole = { gul: together, il: together, occurrence: p.occurrence };
      parts.push(whole);
      for (const x of p.keyedPerils) {
        const one = p.keyedPerils.size === 1 ? together : carried(p.carries.get(x));
        perilLosses(p.run, x, { gul: one, il: one, occurrence: p.occurrence });
      }
    }
  }
  const combined = sideBySide(parts, periods, o.samples, records);
  return { ...combined, samples: o.samples, packages: byPackage.map((p) => p.run), locationsKeyed: keyedAll };
}

/**
 * The largest group id of each kernel run's items (`folder/all`, `folder/peril`) over the whole book: another
 * seed than 1 shifts the groups by it (computeLosses' groupMax), and a chunk alone does not know it. A first
 * pass over the chunks, their keys and input tables only.
 */
async function largestGroupsOver(o: BookRunOptions, chunks: BookChunks): Promise<Map<string, number>> {
  const { largestGroupId } = await import('../loss/run.js');
  const max = new Map<string, number>();
  const keep = (key: string, tables: InputTables) => max.set(key, Math.max(max.get(key) ?? 0, largestGroupId(tables)));
  for (let c = 0; c < chunks.count; c++) {
    const dir = path.join(o.workDir, `groups-${c + 1}`);
    fs.mkdirSync(dir, { recursive: true });
    o.progress?.(`damage groups, chunk ${c + 1} of ${chunks.count}`);
    const co = { ...o, location: await chunks.write(c, dir), workDir: dir };
    for (const { pkg, perils } of o.packages) {
      const prepared = await preparePackage(pkg, perils, path.join(o.modelsDir, pkg.folder), co);
      if (prepared.keys.length === 0) continue;
      keep(`${pkg.folder}/all`, prepared.tables);
      if (perils.length === 1) continue;
      for (const x of perils) {
        const keys = prepared.keys.filter((k) => k.perilId === oedCodeOf(x));
        if (keys.length) keep(`${pkg.folder}/${x}`, await inputTablesOf(keys, co, pkg));
      }
    }
    forgetChunk(dir);
  }
  return max;
}

/**
 * In chunks, whether a package's perils run each on its own too (for the split by peril), from the chunk
 * about to run on: once the book is known to hold keys of more than one of them. Until then the perils
 * keyed so far are one, whose items were the together run's alone: its own sums so far are a copy of that
 * run's. Another seed than 1 knows from the first pass which perils the book keys (their groups' shift
 * differs from the together run's), so it splits from the first chunk on.
 */
function splitFrom(
  p: {
    f: { pkg: ModelPackage; perils: Peril[] };
    carries: Map<string, { state?: EventCarry }>;
    keyedPerils: Set<Peril>;
    split: boolean;
  },
  perils: readonly Peril[],
  groupMax: Map<string, number> | undefined,
): void {
  if (p.split || p.f.perils.length === 1) return;
  const keyed = groupMax
    ? p.f.perils.filter((x) => groupMax.has(`${p.f.pkg.folder}/${x}`)).length
    : new Set([...p.keyedPerils, ...perils]).size;
  if (keyed < 2) return;
  p.split = true;
  const [solo] = p.keyedPerils;
  const so = p.carries.get('all')?.state;
  if (solo !== undefined && so) p.carries.set(solo, { state: copyOfCarry(so) });
}

/** A peril's own records and AAL in its package's run. */
function perilLosses(
  run: PackageRun,
  peril: Peril,
  r: { gul: SummaryRecords; il: SummaryRecords; occurrence: Occurrence },
): void {
  run.aalByPeril[peril] = { gul: aalOf(r.gul, r.occurrence).sampled, il: aalOf(r.il, r.occurrence).sampled };
  run.recordsByPeril[peril] = { gul: r.gul, il: r.il };
}

/** A chunk's files and the columns kept of its location file, gone before the next chunk. */
function forgetChunk(dir: string): void {
  forgetCsvColumnsIn(dir);
  fs.rmSync(dir, { recursive: true, force: true });
}

/**
 * A package's side of a book's run before its kernel, made on the package folder `dir`: its keys on the
 * book, the vulnerabilities the book needs that the package lacks (written for this run), and the Oasis
 * input tables of the run of its perils together. A live event's loss makes it on the built package while
 * the event's footprints are made (runBook's `prepared`); the keys are then the event package's as long as
 * the event reaches no cell the package does not.
 */
export interface PreparedPackage {
  folder: string;
  /** The keys lookup's whole answer, every peril of the package, and its keys of the perils asked for. */
  all: PackageKeys;
  keys: PackageKeys['keys'];
  /** The vulnerability file this book needs beside the package's, when the package lacks some. */
  extraVulnerabilities: string | null;
  /** The input tables of the run of the perils together (empty without keys), and with `readInput` what the run reads from them. */
  tables: InputTables;
  runInput?: RunInput;
}

export async function preparePackage(
  pkg: ModelPackage,
  perils: Peril[],
  dir: string,
  o: Pick<BookRunOptions, 'location' | 'account' | 'dataDir' | 'workDir' | 'progress' | 'samples' | 'seed'> & {
    /** Read the run's input side from the tables too (readRunInput): what computeLosses would read first. */
    readInput?: boolean;
  },
  keysKnown?: (keys: PackageKeys['keys']) => void,
): Promise<PreparedPackage> {
  o.progress?.(`${pkg.folder}: keys`);
  const all = await pkg.keys(dir, o.location);
  const codes = new Set(perils.map(oedCodeOf));
  const keys = all.keys.filter((k) => codes.has(k.perilId));
  const prepared: PreparedPackage = { folder: pkg.folder, all, keys, extraVulnerabilities: null, tables: new Map() };
  if (keys.length === 0) return prepared;
  keysKnown?.(keys);
  // A book of occupancies or constructions the package was not built with: their vulnerabilities are
  // computed for this run (as `model build --oed-location` would add them), the package left as it is.
  const missing = await pkg.missingVulnerabilities(dir, keys);
  if (missing.length) {
    o.progress?.(`${pkg.folder}: ${missing.length} vulnerabilities this book needs`);
    try {
      prepared.extraVulnerabilities = await pkg.writeVulnerabilities(
        o.dataDir,
        missing,
        path.join(o.workDir, `${pkg.folder}-vulnerability`),
      );
    } catch (err) {
      throw new CatintelError(
        'invalid_input',
        `the ${pkg.folder} model package in ${dir} holds no vulnerability ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''} for this book's occupancy and construction, and they cannot be computed here (${(err as Error).message}); rebuild the package with the book's: \`${pkg.build.command} --oed-location BOOK.csv --out ${dir}\``,
      );
    }
  }
  prepared.tables = await inputTablesOf(keys, o, pkg);
  if (o.readInput) {
    const { readRunInput } = await import('../loss/run.js');
    prepared.runInput = readRunInput({
      inputDir: inputDirOf(o.workDir, pkg, 'all'),
      inputTables: prepared.tables,
      settings: bookSettings(o.samples, o.account !== undefined),
      seed: o.seed,
    });
  }
  return prepared;
}

/** The Oasis input files of the book on these keys, as the tables the kernel would read from them. */
async function inputTablesOf(
  keys: PackageKeys['keys'],
  o: Pick<BookRunOptions, 'location' | 'account' | 'progress'>,
  pkg: ModelPackage,
): Promise<InputTables> {
  const { oasisInputTables } = await import('../oasis-files/run.js');
  o.progress?.(`${pkg.folder}: Oasis input files`);
  return oasisInputTables({ location: o.location, account: o.account, keysTable: keysTable(keys) }).tables;
}

/** The keys as `oasis files` reads them from a keys file (its numbers are the keys' own: Number of their text). */
function keysTable(keys: PackageKeys['keys']): KeysTable {
  const n = keys.length;
  const t: KeysTable = {
    locId: new Int32Array(n),
    perilId: new Array<string>(n),
    coverageTypeId: new Int32Array(n),
    areaPerilId: new Float64Array(n),
    vulnerabilityId: new Float64Array(n),
  };
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    t.locId[i] = k.locId;
    t.perilId[i] = k.perilId;
    t.coverageTypeId[i] = k.coverageTypeId;
    t.areaPerilId[i] = k.areaPerilId;
    t.vulnerabilityId[i] = k.vulnerabilityId;
  }
  return t;
}

/**
 * The AAL of one perspective from the ALT (`oasis run`'s palt rows): the analytical mean (SampleType 1)
 * and, when sampled, the mean over every (period, sample) (SampleType 2; the analytical one without samples).
 */
export function aalOf(r: SummaryRecords, occ: Occurrence): { analytic: number; sampled: number } {
  const rows = paltRows(r, occ);
  const sum = (type: number) => rows.filter((x) => x.sampleType === type).reduce((s, x) => s + x.mean, 0);
  const analytic = sum(1);
  return { analytic, sampled: r.samples > 0 ? sum(2) : analytic };
}

/** The packages' records as one set: event ids shifted past the previous package's, occurrences joined on the period. */
function sideBySide(
  parts: { gul: SummaryRecords; il: SummaryRecords; occurrence: Occurrence }[],
  periods: number,
  samples: number,
  records: (capacity: number, samples: number) => SummaryRecords,
): { gul: SummaryRecords; il: SummaryRecords; occurrence: Occurrence } {
  if (parts.length === 1) return parts[0];
  const emptyOcc: Occurrence = {
    eventId: new Int32Array(0),
    period: new Int32Array(0),
    year: new Int32Array(0),
    month: new Int32Array(0),
    day: new Int32Array(0),
    periods,
  };
  if (parts.length === 0) return { gul: records(0, samples), il: records(0, samples), occurrence: emptyOcc };
  const offsets: number[] = [];
  let next = 0;
  for (const p of parts) {
    offsets.push(next);
    let max = 0;
    for (const e of p.occurrence.eventId) if (e > max) max = e;
    for (let i = 0; i < p.gul.length; i++) if (p.gul.eventId[i] > max) max = p.gul.eventId[i];
    next += max;
  }
  const join = (pick: (p: (typeof parts)[number]) => SummaryRecords): SummaryRecords => {
    const out = records(
      parts.reduce((n, p) => n + pick(p).length, 0),
      samples,
    );
    let at = 0;
    parts.forEach((p, k) => {
      const r = pick(p);
      for (let i = 0; i < r.length; i++, at++) {
        out.eventId[at] = r.eventId[i] + offsets[k];
        out.summaryId[at] = r.summaryId[i];
        out.mean[at] = r.mean[i];
        out.max[at] = r.max[i];
        out.exposure[at] = r.exposure[i];
        out.affected[at] = r.affected[i];
      }
      out.sampled.set(r.sampled.subarray(0, r.length * samples), (at - r.length) * samples);
    });
    out.length = at;
    return out;
  };
  const cat = (pick: (o: Occurrence) => Int32Array, shift: boolean) => {
    const all: number[] = [];
    parts.forEach((p, k) => {
      for (const v of pick(p.occurrence)) all.push(shift ? v + offsets[k] : v);
    });
    return Int32Array.from(all);
  };
  const occurrence: Occurrence = {
    eventId: cat((o) => o.eventId, true),
    period: cat((o) => o.period, false),
    year: cat((o) => o.year, false),
    month: cat((o) => o.month, false),
    day: cat((o) => o.day, false),
    periods,
  };
  return { gul: join((p) => p.gul), il: join((p) => p.il), occurrence };
}
