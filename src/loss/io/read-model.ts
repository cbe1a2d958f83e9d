/**
 * Reads an Oasis model directory (model_data: events, occurrence, footprint, vulnerability,
 * damage_bin_dict, returnperiods) and an Oasis input directory (items, coverages, fm_*) into the
 * kernel's typed arrays. CSV only; the .bin forms are not read (docs/loss-engine.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../../errors.js';
import type { Footprint, Items, Occurrence } from '../domain/types.js';
import { readTable } from './csv.js';

const i32 = (a: Float64Array) => Int32Array.from(a);

/**
 * The first of `names` that exists in dir (model files carry the event set / occurrence id in their
 * name: events_p.csv, occurrence_lt.csv). With no settings naming one, a directory holding exactly one
 * `<stem>_*.csv` uses it.
 */
function pick(dir: string, names: string[], stem: string): string {
  for (const n of names) if (fs.existsSync(path.join(dir, n))) return path.join(dir, n);
  const found = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.startsWith(`${stem}_`) && f.endsWith('.csv')) : [];
  if (found.length === 1 && names.length === 1) return path.join(dir, found[0]);
  const hint = found.length > 1 ? `; it holds ${found.join(', ')}: name one in --settings (model_settings.event_set / event_occurrence_id)` : '; give the Oasis model_data directory with --model';
  throw new CatintelError('invalid_input', `none of ${names.join(', ')} is in ${dir}${hint}`);
}

export function readEvents(dir: string, eventSet?: string): Int32Array {
  const t = readTable(pick(dir, [...(eventSet ? [`events_${eventSet}.csv`] : []), 'events.csv'], 'events'), ['event_id']);
  return i32(t.col('event_id'));
}

export function readOccurrence(dir: string, occurrenceId?: string): Occurrence {
  const t = readTable(pick(dir, [...(occurrenceId ? [`occurrence_${occurrenceId}.csv`] : []), 'occurrence.csv'], 'occurrence'), ['event_id', 'period_no']);
  const period = i32(t.col('period_no'));
  // The CSV does not carry P; periods.csv lists every period when present, else the largest period_no is P.
  let periods = 0;
  for (const p of period) periods = Math.max(periods, p);
  const periodsFile = path.join(dir, 'periods.csv');
  if (fs.existsSync(periodsFile)) periods = Math.max(periods, readTable(periodsFile, ['period_no']).rows);
  const opt = (n: string) => (t.has(n) ? i32(t.col(n)) : new Int32Array(t.rows));
  return { eventId: i32(t.col('event_id')), period, year: opt('occ_year'), month: opt('occ_month'), day: opt('occ_day'), periods };
}

export function readFootprint(dir: string): Footprint {
  const t = readTable(path.join(dir, 'footprint.csv'), ['event_id', 'areaperil_id', 'intensity_bin_id', 'probability']);
  const ev = t.col('event_id');
  const byEvent = new Map<number, [number, number]>();
  for (let i = 0; i < t.rows; i++) {
    const r = byEvent.get(ev[i]);
    if (!r) byEvent.set(ev[i], [i, i + 1]);
    else if (r[1] === i) r[1] = i + 1;
    else throw new CatintelError('invalid_input', `footprint.csv line ${i + 2}: event ${ev[i]} appears again after other events; sort the footprint by event_id, then areaperil_id`);
  }
  return { areaperil: t.col('areaperil_id'), intensityBin: i32(t.col('intensity_bin_id')), prob: t.col('probability'), byEvent };
}

export function readReturnPeriods(dir: string): number[] | undefined {
  const file = path.join(dir, 'returnperiods.csv');
  if (!fs.existsSync(file)) return undefined;
  return [...readTable(file, ['return_period']).col('return_period')];
}

/** quantile.csv (for the QELT and QPLT); none when the model has no such file. */
export function readQuantiles(dir: string): number[] {
  const file = path.join(dir, 'quantile.csv');
  return fs.existsSync(file) ? [...readTable(file, ['quantile']).col('quantile')] : [];
}

export function readItems(dir: string): Items {
  const t = readTable(path.join(dir, 'items.csv'), ['item_id', 'coverage_id', 'areaperil_id', 'vulnerability_id', 'group_id']);
  return { itemId: i32(t.col('item_id')), coverageId: i32(t.col('coverage_id')), areaperil: t.col('areaperil_id'), vulnerability: i32(t.col('vulnerability_id')), groupId: t.col('group_id') };
}

export function readCoverages(dir: string): Float64Array {
  const t = readTable(path.join(dir, 'coverages.csv'), ['coverage_id', 'tiv']);
  const id = t.col('coverage_id');
  let max = 0;
  for (const c of id) max = Math.max(max, c);
  const tiv = new Float64Array(max + 1);
  const v = t.col('tiv');
  for (let i = 0; i < t.rows; i++) tiv[id[i]] = v[i];
  return tiv;
}

/** vulnerability.csv as dense float32 probabilities per vulnerability id: [intensity bin * nDamage + (damage bin - 1)]. */
export function denseVulnerability(rows: { vulnerability: ArrayLike<number>; intensityBin: ArrayLike<number>; damageBin: ArrayLike<number>; prob: ArrayLike<number> }, nDamage: number): Map<number, Float32Array> {
  let maxIntensity = 0;
  for (let i = 0; i < rows.intensityBin.length; i++) maxIntensity = Math.max(maxIntensity, rows.intensityBin[i]);
  const out = new Map<number, Float32Array>();
  for (let i = 0; i < rows.vulnerability.length; i++) {
    const v = rows.vulnerability[i];
    let a = out.get(v);
    if (!a) out.set(v, (a = new Float32Array((maxIntensity + 1) * nDamage)));
    a[rows.intensityBin[i] * nDamage + rows.damageBin[i] - 1] = rows.prob[i];
  }
  return out;
}

/**
 * correlations.csv by item order, or undefined when the input has none. Both layouts are read by
 * column name: the older five columns (PiWind) and the current six (with source_item_id, unused here).
 */
export function readCorrelations(dir: string, items: Items): { group: Int32Array; damageRho: Float64Array; hazardGroup: Float64Array } | undefined {
  const file = path.join(dir, 'correlations.csv');
  if (!fs.existsSync(file)) return undefined;
  const t = readTable(file, ['item_id', 'peril_correlation_group', 'damage_correlation_value']);
  const byItem = new Map<number, number>();
  const id = t.col('item_id');
  for (let r = 0; r < t.rows; r++) byItem.set(id[r], r);
  const n = items.itemId.length;
  const group = new Int32Array(n);
  const damageRho = new Float64Array(n);
  const hazardGroup = new Float64Array(n);
  const g = t.col('peril_correlation_group');
  const rho = t.col('damage_correlation_value');
  const hg = t.has('hazard_group_id') ? t.col('hazard_group_id') : undefined;
  for (let i = 0; i < n; i++) {
    const r = byItem.get(items.itemId[i]);
    // gulmc's left join: an item without a row gets group 0, no correlation.
    if (r === undefined) continue;
    group[i] = g[r];
    damageRho[i] = rho[r];
    hazardGroup[i] = hg ? hg[r] : 0;
  }
  return { group, damageRho, hazardGroup };
}
