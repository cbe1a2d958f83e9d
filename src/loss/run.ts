/**
 * `catintel oasis run`: reads an Oasis model and input directory, runs the kernel (ground-up mean
 * per item with gul_alloc_rule, the financial module, summaries) and writes the ORD files the
 * analysis settings ask for. I/O lives here; the arithmetic is in ./domain.
 */
import fs from 'node:fs';
import path from 'node:path';
import { damageBins, vulnerabilityMoments } from './domain/vulnerability.js';
import { gulForEvent, itemsByAreaperil, type GulContext, type GulEvent } from './domain/gul.js';
import { insuredLoss, planFm } from './domain/fm.js';
import type { SummaryRecords } from './domain/elt.js';
import { readCoverages, readEvents, readFm, readFootprint, readItems, readOccurrence, readReturnPeriods } from './io/read-model.js';
import { readTable } from './io/csv.js';
import { defaultSettings, readSettings } from './settings.js';
import { writePerspective, type Written, type Skipped } from './write-outputs.js';

export interface OasisRunOptions {
  modelDir: string;
  inputDir: string;
  outDir: string;
  settingsFile?: string;
  allocRule: 0 | 1;
  progress?: (done: number, total: number, message: string) => void;
}

export interface OasisRunResult {
  events: number;
  items: number;
  periods: number;
  files: Written[];
  skipped: Skipped[];
  seconds: number;
}

function records(capacity: number): SummaryRecords {
  return {
    eventId: new Int32Array(capacity),
    summaryId: new Int32Array(capacity),
    mean: new Float64Array(capacity),
    max: new Float64Array(capacity),
    exposure: new Float64Array(capacity),
    affected: new Float64Array(capacity),
    length: 0,
  };
}

export function runOasis(opts: OasisRunOptions): OasisRunResult {
  const t0 = performance.now();
  const settings = opts.settingsFile ? readSettings(opts.settingsFile) : defaultSettings();
  const events = readEvents(opts.modelDir, settings.eventSet);
  const occurrence = readOccurrence(opts.modelDir, settings.occurrenceId);
  const rps = settings.returnPeriods ?? readReturnPeriods(opts.modelDir);
  const dbd = readTable(path.join(opts.modelDir, 'damage_bin_dict.csv'), ['bin_index', 'bin_from', 'bin_to', 'interpolation']);
  const bins = damageBins(dbd.col('bin_index'), dbd.col('bin_to'), dbd.col('interpolation'));
  const vt = readTable(path.join(opts.modelDir, 'vulnerability.csv'), ['vulnerability_id', 'intensity_bin_id', 'damage_bin_id', 'probability']);
  const vuln = vulnerabilityMoments({ vulnerability: vt.col('vulnerability_id'), intensityBin: vt.col('intensity_bin_id'), damageBin: vt.col('damage_bin_id'), prob: vt.col('probability') }, bins);
  const footprint = readFootprint(opts.modelDir);
  opts.progress?.(0, events.length, 'model read');

  const items = readItems(opts.inputDir);
  const tiv = readCoverages(opts.inputDir);
  const fm = settings.il.length > 0 ? readFm(opts.inputDir) : undefined;
  const plan = fm ? planFm(fm) : undefined;

  const n = items.itemId.length;
  let maxItemId = 0;
  for (const id of items.itemId) maxItemId = Math.max(maxItemId, id);
  const itemsOnCoverage = new Float64Array(tiv.length);
  for (const c of items.coverageId) itemsOnCoverage[c]++;
  // Per event: how many of a coverage's items the footprint reaches. The exposure FM sees is each item's
  // TIV under gul_alloc_rule 1 (as gulmc allocates its TIV record): perils that together exceed the
  // coverage TIV share it pro rata, so two perils on one coverage count its TIV once.
  const hitOnCoverage = new Float64Array(tiv.length);
  const ctx: GulContext = { items, tiv, vuln, footprint, allocRule: opts.allocRule, itemsByAreaperil: itemsByAreaperil(items) };
  const ev: GulEvent = { touched: false, mean: new Float64Array(n), max: new Float64Array(n), hit: new Uint8Array(n) };
  const scratch = { mean: new Float64Array(tiv.length), max: new Float64Array(tiv.length) };
  const coverageSeen = new Uint8Array(tiv.length);
  const byItem = { mean: new Float64Array(maxItemId + 1), max: new Float64Array(maxItemId + 1), exposure: new Float64Array(maxItemId + 1) };
  const gul = records(events.length);
  const il = records(events.length);

  for (let e = 0; e < events.length; e++) {
    const eventId = events[e];
    gulForEvent(ctx, eventId, ev, scratch);
    if (!ev.touched) continue;
    let mean = 0;
    let max = 0;
    let exposure = 0;
    let affected = 0;
    coverageSeen.fill(0);
    hitOnCoverage.fill(0);
    for (let i = 0; i < n; i++) if (ev.hit[i]) hitOnCoverage[items.coverageId[i]]++;
    byItem.mean.fill(0);
    byItem.max.fill(0);
    byItem.exposure.fill(0);
    for (let i = 0; i < n; i++) {
      if (!ev.hit[i]) continue;
      const c = items.coverageId[i];
      mean += ev.mean[i];
      max += ev.max[i];
      if (!coverageSeen[c]) {
        coverageSeen[c] = 1;
        exposure += tiv[c];
        affected++;
      }
      byItem.mean[items.itemId[i]] = ev.mean[i];
      byItem.max[items.itemId[i]] = ev.max[i];
      byItem.exposure[items.itemId[i]] = opts.allocRule === 1 ? tiv[c] / hitOnCoverage[c] : tiv[c];
    }
    const k = gul.length++;
    gul.eventId[k] = eventId;
    gul.summaryId[k] = 1;
    gul.mean[k] = mean;
    gul.max[k] = max;
    gul.exposure[k] = exposure;
    gul.affected[k] = affected;
    if (plan) {
      const j = il.length++;
      il.eventId[j] = eventId;
      il.summaryId[j] = 1;
      il.mean[j] = insuredLoss(plan, byItem.mean);
      il.max[j] = insuredLoss(plan, byItem.max);
      il.exposure[j] = insuredLoss(plan, byItem.exposure);
      il.affected[j] = affected;
    }
    if ((e & 1023) === 0) opts.progress?.(e, events.length, 'events');
  }
  opts.progress?.(events.length, events.length, 'events');

  fs.mkdirSync(opts.outDir, { recursive: true });
  let totalTiv = 0;
  for (let c = 0; c < tiv.length; c++) if (itemsOnCoverage[c] > 0) totalTiv += tiv[c];
  const files: Written[] = [];
  const skipped: Skipped[] = settings.unsupported.map((p) => ({ output: `${p}_output`, reason: `the ${p} perspective (reinsurance) is not computed by catintel oasis run` }));
  for (const s of settings.gul) writePerspective(opts.outDir, 'gul', s, gul, occurrence, rps, totalTiv, files, skipped);
  if (plan) for (const s of settings.il) writePerspective(opts.outDir, 'il', s, il, occurrence, rps, totalTiv, files, skipped);
  else if (settings.il.length > 0) skipped.push({ output: 'il_output', reason: `no fm_programme.csv in ${opts.inputDir}` });
  return { events: gul.length, items: n, periods: occurrence.periods, files, skipped, seconds: Math.round(performance.now() - t0) / 1000 };
}
