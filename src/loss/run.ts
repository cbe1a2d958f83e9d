/**
 * `catintel oasis run`: reads an Oasis model and input directory, runs the kernel (./kernel.ts) and
 * writes the ORD files the analysis settings ask for. I/O lives here; the arithmetic is in ./domain.
 */
import { riskMap } from './io/risk-map.js';
import { itemsByAreaperil } from './domain/gul.js';
import { planInsured } from './fm/insured-total.js';
import { planReinsurance, reinsuranceDirs } from './fm/reinsurance-chain.js';
import type { SampleContext } from './domain/kernel-inputs.js';
import { readDamageModel } from './io/damage-model.js';
import { InputFiles, type InputTables } from './io/input-files.js';
import {
  readCorrelations,
  readCoverages,
  readEvents,
  readFootprint,
  readItems,
  readOccurrence,
  readQuantiles,
  readReturnPeriods,
} from './io/read-model.js';
import { OutputSet } from '../lib/output-set.js';
import { SUMMARY_TIV_COLUMNS, summaryMapColumns, summaryMapTiv, summaryTiv } from './io/summary-tiv.js';
import type { KernelInput } from './kernel.js';
import { carriesOn, eventCarry, type EventCarry } from './domain/event-carry.js';
import type { SummaryRecords } from './domain/elt.js';
import type { Occurrence } from './domain/types.js';
import type { RunSettings } from './settings.js';
import type { KernelPool } from './kernel-pool.js';
import { runKernelParallel, threadsFor } from './kernel-threads.js';
import { defaultSettings, readSettings } from './settings.js';
import { writePerspective, type OrdFormat, type Written, type Skipped } from './write-outputs.js';

export interface OasisRunOptions {
  modelDir: string;
  inputDir: string;
  outDir: string;
  settingsFile?: string;
  allocRule: 0 | 1;
  /** Overrides the settings' number_of_samples. */
  samples?: number;
  /** Threads for the event loop (default: kernel.ts threadsFor, by the size of the run). */
  threads?: number;
  /** csv, parquet or arrow for every ORD table; without it each summary's ord_output.parquet_format decides (csv when unset). */
  ordFormat?: OrdFormat;
  progress?: (done: number, total: number, message: string) => void;
}

export interface OasisRunResult {
  events: number;
  items: number;
  periods: number;
  samples: number;
  files: Written[];
  skipped: Skipped[];
  /** manifest.json of the output directory, written after every file is in place. */
  manifest: string;
  seconds: number;
}

/** What computeLosses needs beside the model and input directories. */
export interface ComputeLossesOptions {
  modelDir: string;
  inputDir: string;
  /**
   * Input files already in memory, by name (`oasis files`' tables for a run that reads them next): each
   * is read from here instead of from inputDir, which need not hold it.
   */
  inputTables?: InputTables;
  /** The analysis settings read already (default: defaultSettings()). */
  settings: RunSettings;
  allocRule: 0 | 1;
  /** Overrides the settings' number_of_samples. */
  samples?: number;
  /** Only the first `periods` periods of the occurrence (a shorter catalog: its events outside them are not run). */
  periods?: number;
  /**
   * Shifts every item's group id by (seed - 1) x (largest group id + 1): the damage draws are seeded by
   * group and event, so another seed draws other samples; 1 (or unset) keeps the input's own group ids,
   * and so Oasis's own draws.
   */
  seed?: number;
  threads?: number;
  /**
   * Kernel threads started before this run (kernel-pool.ts): the run's threads are taken from it, and the
   * model's damage side is read on it while this thread reads the input.
   */
  pool?: KernelPool;
  /** The input side read already (readRunInput of these options' input): not read again. */
  runInput?: RunInput;
  /**
   * This run is one chunk of a book's items (domain/event-carry.ts): its ground-up sums are added to the
   * carry's (made on the first chunk's run), and no record is made; carriedRecords gives them once the
   * last chunk has run.
   */
  carry?: { state?: EventCarry };
  /**
   * The largest group id of the whole book's items, where this run's input holds a chunk of them: `seed`'s
   * shift is taken from it (largestGroupId over every chunk), as one pass over the book takes it.
   */
  groupMax?: number;
  progress?: (done: number, total: number, message: string) => void;
}

/** The kernel's losses of one run, with what writing them needs. */
export interface ComputedLosses {
  settings: RunSettings;
  samples: number;
  events: Int32Array;
  items: number;
  occurrence: Occurrence;
  returnPeriods: number[] | undefined;
  quantiles: number[];
  gul: SummaryRecords;
  /** Insured losses; undefined without fm files (no fm_programme.csv). */
  il?: SummaryRecords;
  ri?: SummaryRecords;
  rl?: SummaryRecords[];
  /** summary-info TIVs of the gul and il perspectives. */
  gulTiv: number;
  ilTiv: number;
  reinsuranceDirs: string[];
}

/**
 * What a run reads from its input files alone, before the model: the items (their groups reseeded), the
 * coverages, the insurance programme, the gul summary map and the risks on it, the correlations. A live
 * event's loss reads it while the event's footprints are made (computeLosses' `runInput`).
 */
export interface RunInput {
  input: InputFiles;
  items: ReturnType<typeof readItems>;
  tiv: ReturnType<typeof readCoverages>;
  reinsuranceDirs: string[];
  plan?: ReturnType<typeof planInsured>;
  reinsurance?: ReturnType<typeof planReinsurance>;
  /** The gul summary map's columns (item_id, then the TIV columns), read once: the risks now, the summary TIV after the kernel. */
  gulMap: ReturnType<typeof summaryMapColumns>;
  risks: ReturnType<typeof riskMap> | undefined;
  byAreaperil: ReturnType<typeof itemsByAreaperil>;
  correlations: ReturnType<typeof readCorrelations> | undefined;
}

export function readRunInput(
  opts: Pick<ComputeLossesOptions, 'inputDir' | 'inputTables' | 'settings' | 'samples' | 'seed' | 'groupMax'>,
): RunInput {
  const settings = opts.settings;
  const S = opts.samples ?? settings.samples;
  const input = InputFiles.of(opts.inputDir, opts.inputTables);
  const items = readItems(input);
  if (opts.seed !== undefined && opts.seed !== 1)
    reseedGroups(items.groupId, opts.seed, opts.groupMax ?? largestGroupId(items.groupId));
  const tiv = readCoverages(input);
  // ri and rl need the insured losses per output (the whole programme, items handed over one by one);
  // without them the kernel adds items into level 1 and the insured total is all that is computed.
  const wantsReinsurance = settings.ri.length > 0 || settings.rl.length > 0;
  const riDirs = wantsReinsurance ? reinsuranceDirs(input) : [];
  const perItem = riDirs.length > 0 && input.has('fm_programme.csv');
  const gulMap = summaryMapColumns(input, 'gul_summary_map.csv', ['item_id', ...SUMMARY_TIV_COLUMNS]);
  return {
    input,
    items,
    tiv,
    reinsuranceDirs: riDirs,
    plan: settings.il.length > 0 || perItem ? planInsured(input, perItem) : undefined,
    reinsurance: perItem ? planReinsurance(input, settings.rl.length > 0) : undefined,
    gulMap,
    // Without the map the kernel counts coverages.
    risks: gulMap && riskMap(gulMap[0], gulMap[1], gulMap[2], items),
    byAreaperil: itemsByAreaperil(items),
    correlations: S > 0 ? readCorrelations(input, items) : undefined,
  };
}

/** Reads the model and the input (or takes `runInput`, read already) and runs the kernel: every perspective's records, nothing written. */
export async function computeLosses(opts: ComputeLossesOptions): Promise<ComputedLosses> {
  const settings = opts.settings;
  const S = opts.samples ?? settings.samples;
  let occurrence = readOccurrence(opts.modelDir, settings.occurrenceId);
  let events = readEvents(opts.modelDir, settings.eventSet);
  if (opts.periods !== undefined) {
    occurrence = firstPeriods(occurrence, opts.periods);
    const kept = new Set(occurrence.eventId);
    events = events.filter((e) => kept.has(e));
  }
  const rps = settings.returnPeriods ?? readReturnPeriods(opts.modelDir);
  const damageModel = opts.pool ? opts.pool.damageModel(opts.modelDir) : readDamageModel(opts.modelDir);
  const {
    input,
    items,
    tiv,
    plan,
    reinsurance,
    gulMap,
    risks,
    byAreaperil,
    correlations,
    reinsuranceDirs: riDirs,
  } = opts.runInput ?? readRunInput(opts);
  const footprint = readFootprint(opts.modelDir, { events, areaperils: new Set(items.areaperil) });
  opts.progress?.(0, events.length, 'model read');

  const { vuln, damage, binFrom } = await damageModel;
  const nDamage = damage.nDamage;
  let sample: SampleContext | undefined;
  if (S > 0) {
    sample = {
      items,
      tiv,
      footprint,
      vulnProbs: damage.probs,
      nDamage,
      binFrom,
      binTo: damage.binTo,
      binMean: damage.interp,
      correlations,
      samples: S,
    };
  }
  const kernel: KernelInput = {
    events,
    gul: {
      items,
      tiv,
      vuln,
      damage,
      footprint,
      allocRule: opts.allocRule,
      itemsByAreaperil: byAreaperil,
      risks,
    },
    sample,
    plan,
    reinsurance,
    carry: opts.carry && carryFor(opts.carry, events, S),
    progress: opts.progress,
  };
  const threads = threadsFor(kernel, opts.threads);
  const { gul, il, ri, rl } = await runKernelParallel(kernel, threads, opts.pool);

  const covered = new Uint8Array(tiv.length);
  for (const c of items.coverageId) covered[c] = 1;
  let coveredTiv = 0;
  for (let c = 0; c < tiv.length; c++) if (covered[c]) coveredTiv += tiv[c];
  // summary-info reports the summary map's TIV, as Oasis does; coverages.csv only when there is no map.
  const gulTiv = (gulMap && summaryTiv(gulMap)) ?? coveredTiv;
  // The insured one reads fm_summary_map.csv again: only when asked for (a book's run never asks).
  let ilTiv: number | undefined;
  const ilTivOf = () =>
    (ilTiv ??= plan ? (summaryMapTiv(input, 'fm_summary_map.csv', 'output_id') ?? coveredTiv) : coveredTiv);
  return {
    settings,
    samples: S,
    events,
    items: items.itemId.length,
    occurrence,
    returnPeriods: rps,
    quantiles: readQuantiles(opts.modelDir),
    gul,
    il: plan ? il : undefined,
    ri,
    rl,
    gulTiv,
    get ilTiv() {
      return ilTivOf();
    },
    reinsuranceDirs: riDirs,
  };
}

function carryFor(slot: { state?: EventCarry }, events: Int32Array, samples: number): EventCarry {
  const carry = (slot.state ??= eventCarry(events, samples));
  if (!carriesOn(carry, events, samples))
    throw new Error('a chunk of a book ran other events or samples than the chunks before it');
  return carry;
}

/** The occurrence of the first `periods` periods only: a catalog of that many years. */
function firstPeriods(occ: Occurrence, periods: number): Occurrence {
  const keep: number[] = [];
  for (let i = 0; i < occ.period.length; i++) if (occ.period[i] <= periods) keep.push(i);
  const pick = (a: Int32Array) => Int32Array.from(keep, (i) => a[i]);
  return {
    eventId: pick(occ.eventId),
    period: pick(occ.period),
    year: pick(occ.year),
    month: pick(occ.month),
    day: pick(occ.day),
    periods,
  };
}

/** The largest group id of a run's items (read from its input files or tables when given them). */
export function largestGroupId(groupId: Float64Array | InputTables, inputDir = ''): number {
  const ids = groupId instanceof Float64Array ? groupId : readItems(InputFiles.of(inputDir, groupId)).groupId;
  let max = 0;
  for (const g of ids) if (g > max) max = g;
  return max;
}

function reseedGroups(groupId: Float64Array, seed: number, max: number): void {
  const shift = (seed - 1) * (max + 1);
  for (let i = 0; i < groupId.length; i++) groupId[i] += shift;
}

export async function runOasis(opts: OasisRunOptions): Promise<OasisRunResult> {
  const t0 = performance.now();
  const settings = opts.settingsFile ? readSettings(opts.settingsFile) : defaultSettings();
  const run = await computeLosses({
    modelDir: opts.modelDir,
    inputDir: opts.inputDir,
    settings,
    allocRule: opts.allocRule,
    samples: opts.samples,
    threads: opts.threads,
    progress: opts.progress,
  });
  const { events, occurrence, quantiles, gul, il, ri, rl, gulTiv, ilTiv, samples: S } = run;
  const rps = run.returnPeriods;
  const plan = il !== undefined;
  const riDirs = run.reinsuranceDirs;
  const reinsurance = ri !== undefined;
  const wantsReinsurance = settings.ri.length > 0 || settings.rl.length > 0;
  const files: Written[] = [];
  const skipped: Skipped[] = [];
  if (wantsReinsurance && !reinsurance) {
    const why =
      riDirs.length === 0
        ? `no RI_1/ reinsurance folder in ${opts.inputDir}`
        : `no fm_programme.csv in ${opts.inputDir}`;
    for (const p of ['ri', 'rl'] as const)
      if (settings[p].length > 0) skipped.push({ output: `${p}_output`, reason: why });
  }
  const intermediate = settings.intermediatePriorities.filter((n) => n < riDirs.length);
  if (reinsurance && settings.ri.length > 0 && intermediate.length > 0) {
    skipped.push({
      output: 'ri_inuring_priorities',
      reason: `losses net of inuring levels before the last (${intermediate.join(', ')}) are not computed; ri is net of all ${riDirs.length}`,
    });
  }
  // Every file goes to its temporary name; the set is renamed into place and its manifest written only
  // after the last one, so a reader never takes a half-written or mixed set for a finished run.
  const set = await OutputSet.open(opts.outDir);
  try {
    const format = opts.ordFormat;
    for (const s of settings.gul)
      await writePerspective(set, 'gul', s, gul, occurrence, rps, quantiles, gulTiv, files, skipped, format);
    if (il)
      for (const s of settings.il)
        await writePerspective(set, 'il', s, il, occurrence, rps, quantiles, ilTiv, files, skipped, format);
    // ri and rl are summarised on the insured outputs, so by the fm summary map, as Oasis does; Oasis
    // writes summary-info for ri only. rl has one set of files per inuring level: rl_IP1_S1_melt.csv ...
    if (ri)
      for (const s of settings.ri)
        await writePerspective(set, 'ri', s, ri, occurrence, rps, quantiles, ilTiv, files, skipped, format);
    if (rl) {
      for (const [n, records] of rl.entries()) {
        for (const s of settings.rl)
          await writePerspective(
            set,
            `rl_IP${n + 1}`,
            s,
            records,
            occurrence,
            rps,
            quantiles,
            undefined,
            files,
            skipped,
            format,
          );
      }
    }
    if (!plan && settings.il.length > 0)
      skipped.push({ output: 'il_output', reason: `no fm_programme.csv in ${opts.inputDir}` });
    opts.progress?.(events.length, events.length, `committing ${files.length} files`);
    const manifest = await set.commit({
      command: 'oasis run',
      model: opts.modelDir,
      input: opts.inputDir,
      settings: opts.settingsFile ?? null,
      gul_alloc_rule: opts.allocRule,
      samples: S,
      ord_format: format ?? 'settings',
      events: gul.length,
      periods: occurrence.periods,
    });
    return {
      events: gul.length,
      items: run.items,
      periods: occurrence.periods,
      samples: S,
      files,
      skipped,
      manifest,
      seconds: Math.round(performance.now() - t0) / 1000,
    };
  } catch (err) {
    await set.discard().catch(() => undefined);
    throw err;
  }
}
