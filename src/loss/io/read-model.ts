/**
 * Reads an Oasis model directory (model_data: events, occurrence, footprint, vulnerability,
 * damage_bin_dict, returnperiods) and an Oasis input directory (items, coverages, fm_*) into the
 * kernel's typed arrays. CSV, except the footprint, which is also read from footprint.bin/footprint.idx
 * (a large catalog's footprint is not worth a CSV); the other .bin forms are not read (docs/loss-engine.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { CatintelError } from '../../errors.js';
import type { Footprint, Items, Occurrence } from '../domain/types.js';
import { readTable } from './csv.js';
import { InputFiles } from './input-files.js';

const i32 = (a: Float64Array) => Int32Array.from(a);

/**
 * The first of `names` that exists in dir (model files carry the event set / occurrence id in their
 * name: events_p.csv, occurrence_lt.csv). With no settings naming one, a directory holding exactly one
 * `<stem>_*.csv` uses it.
 */
function pick(dir: string, names: string[], stem: string): string {
  for (const n of names) if (fs.existsSync(path.join(dir, n))) return path.join(dir, n);
  const found = fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((f) => f.startsWith(`${stem}_`) && f.endsWith('.csv'))
    : [];
  if (found.length === 1 && names.length === 1) return path.join(dir, found[0]);
  const hint =
    found.length > 1
      ? `; it holds ${found.join(', ')}: name one in --settings (model_settings.event_set / event_occurrence_id)`
      : '; give the Oasis model_data directory with --model';
  throw new CatintelError('invalid_input', `none of ${names.join(', ')} is in ${dir}${hint}`);
}

export function readEvents(dir: string, eventSet?: string): Int32Array {
  const t = readTable(pick(dir, [...(eventSet ? [`events_${eventSet}.csv`] : []), 'events.csv'], 'events'), [
    'event_id',
  ]);
  return i32(t.col('event_id'));
}

export function readOccurrence(dir: string, occurrenceId?: string): Occurrence {
  const t = readTable(
    pick(dir, [...(occurrenceId ? [`occurrence_${occurrenceId}.csv`] : []), 'occurrence.csv'], 'occurrence'),
    ['event_id', 'period_no'],
  );
  const period = i32(t.col('period_no'));
  // The CSV does not carry P; periods.csv lists every period when present, else the largest period_no is P.
  let periods = 0;
  for (const p of period) periods = Math.max(periods, p);
  const periodsFile = path.join(dir, 'periods.csv');
  if (fs.existsSync(periodsFile)) periods = Math.max(periods, readTable(periodsFile, ['period_no']).rows);
  const opt = (n: string) => (t.has(n) ? i32(t.col(n)) : new Int32Array(t.rows));
  return {
    eventId: i32(t.col('event_id')),
    period,
    year: opt('occ_year'),
    month: opt('occ_month'),
    day: opt('occ_day'),
    periods,
  };
}

/** What a run needs of the footprint: its events and the areaperils of its items (unset: everything). */
export interface FootprintNeed {
  events: ArrayLike<number>;
  areaperils: Set<number>;
}

export function readFootprint(dir: string, need?: FootprintNeed): Footprint {
  if (!fs.existsSync(path.join(dir, 'footprint.csv')) && fs.existsSync(path.join(dir, 'footprint.bin')))
    return readFootprintBin(dir, need);
  const t = readTable(path.join(dir, 'footprint.csv'), ['event_id', 'areaperil_id', 'intensity_bin_id', 'probability']);
  const ev = t.col('event_id');
  const byEvent = new Map<number, [number, number]>();
  for (let i = 0; i < t.rows; i++) {
    const r = byEvent.get(ev[i]);
    if (!r) byEvent.set(ev[i], [i, i + 1]);
    else if (r[1] === i) r[1] = i + 1;
    else
      throw new CatintelError(
        'invalid_input',
        `footprint.csv line ${i + 2}: event ${ev[i]} appears again after other events; sort the footprint by event_id, then areaperil_id`,
      );
  }
  return {
    areaperil: t.col('areaperil_id'),
    intensityBin: i32(t.col('intensity_bin_id')),
    prob: t.col('probability'),
    byEvent,
  };
}

/**
 * footprint.bin (8-byte header, then 12-byte rows: areaperil_id, intensity_bin_id, probability float32)
 * through footprint.idx (event_id int32, offset int64, size int64): only the events the run has and, of
 * each, only the rows on the items' areaperils, so a 10,000-year package is read in the run's share.
 */
function readFootprintBin(dir: string, need?: FootprintNeed): Footprint {
  const idx = fs.readFileSync(path.join(dir, 'footprint.idx'));
  if (idx.length % 20 !== 0)
    throw new CatintelError(
      'invalid_input',
      `${path.join(dir, 'footprint.idx')} is ${idx.length} bytes, not a whole number of 20-byte rows (event_id, offset, size); rebuild the model package`,
    );
  const where = new Map<number, [number, number]>();
  for (let k = 0; k < idx.length; k += 20)
    where.set(idx.readInt32LE(k), [Number(idx.readBigInt64LE(k + 4)), Number(idx.readBigInt64LE(k + 12))]);
  const wanted = need ? Array.from(need.events).filter((e) => where.has(e)) : [...where.keys()];
  const ap: number[] = [];
  const bin: number[] = [];
  const prob: number[] = [];
  const byEvent = new Map<number, [number, number]>();
  const fd = fs.openSync(path.join(dir, 'footprint.bin'), 'r');
  try {
    let buf = Buffer.alloc(1 << 16);
    for (const e of [...new Set(wanted)].sort((a, b) => a - b)) {
      const [offset, size] = where.get(e)!;
      if (size > buf.length) buf = Buffer.alloc(size);
      if (fs.readSync(fd, buf, 0, size, offset) !== size)
        throw new CatintelError(
          'invalid_input',
          `${path.join(dir, 'footprint.bin')} ends inside event ${e}'s rows; rebuild the model package`,
        );
      const start = ap.length;
      for (let at = 0; at + 12 <= size; at += 12) {
        const a = buf.readUInt32LE(at);
        if (need && !need.areaperils.has(a)) continue;
        ap.push(a);
        bin.push(buf.readInt32LE(at + 4));
        prob.push(buf.readFloatLE(at + 8));
      }
      if (ap.length > start) byEvent.set(e, [start, ap.length]);
    }
  } finally {
    fs.closeSync(fd);
  }
  return {
    areaperil: Float64Array.from(ap),
    intensityBin: Int32Array.from(bin),
    prob: Float64Array.from(prob),
    byEvent,
  };
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

export function readItems(dir: string | InputFiles): Items {
  const t = InputFiles.of(dir).table('items.csv', [
    'item_id',
    'coverage_id',
    'areaperil_id',
    'vulnerability_id',
    'group_id',
  ]);
  return {
    itemId: i32(t.col('item_id')),
    coverageId: i32(t.col('coverage_id')),
    areaperil: t.col('areaperil_id'),
    vulnerability: i32(t.col('vulnerability_id')),
    groupId: t.col('group_id'),
  };
}

export function readCoverages(dir: string | InputFiles): Float64Array {
  const t = InputFiles.of(dir).table('coverages.csv', ['coverage_id', 'tiv']);
  const id = t.col('coverage_id');
  let max = 0;
  for (const c of id) max = Math.max(max, c);
  const tiv = new Float64Array(max + 1);
  const v = t.col('tiv');
  for (let i = 0; i < t.rows; i++) tiv[id[i]] = v[i];
  return tiv;
}

/** vulnerability.csv as dense float32 probabilities per vulnerability id: [intensity bin * nDamage + (damage bin - 1)]. */
export function denseVulnerability(
  rows: {
    vulnerability: ArrayLike<number>;
    intensityBin: ArrayLike<number>;
    damageBin: ArrayLike<number>;
    prob: ArrayLike<number>;
  },
  nDamage: number,
): Map<number, Float32Array> {
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
export function readCorrelations(
  dir: string | InputFiles,
  items: Items,
): { group: Int32Array; damageRho: Float64Array; hazardGroup: Float64Array } | undefined {
  const input = InputFiles.of(dir);
  if (!input.has('correlations.csv')) return undefined;
  const t = input.table('correlations.csv', ['item_id', 'peril_correlation_group', 'damage_correlation_value']);
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
