/**
 * The files of an Oasis model_data directory that say when events happen, the same for every catintel
 * model package: events, occurrence (the simulated years), periods, return periods and quantiles, each as
 * CSV and, where oasislmf reads one, binary. The models differ only in how their events are drawn.
 */
import fs from 'node:fs';
import type { OutputSet } from '../../../lib/output-set.js';
import { eventsBin, float32Bin, int32Bin, occurrenceBin } from './oasis-binaries.js';
import type { OccurrenceRow } from './occurrence-row.js';

export const RETURN_PERIODS = [10000, 5000, 1000, 500, 250, 200, 100, 50, 25, 10, 5, 2];
/** oasislmf's default quantiles (its package data), written so both engines give the same QELT/QPLT. */
export const QUANTILES = [0, 0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95, 1];

export function csvOf(header: string, rows: Iterable<string>): { text: string; rows: number } {
  const lines = [header, ...rows];
  return { text: lines.join('\n') + '\n', rows: lines.length - 1 };
}

/** Writes a binary file into the output set. */
export function writeBin(out: OutputSet, name: string, b: Buffer, rows: number): void {
  fs.writeFileSync(out.tempPath(name), b);
  out.add(name, rows);
}

/**
 * events, occurrence, periods, returnperiods and quantile into the output set. The number of periods is
 * the catalog's years, also where the last years hold no event.
 */
export function writeEventSetFiles(out: OutputSet, eventIds: readonly number[], occurrences: readonly OccurrenceRow[], years: number): void {
  const write = (name: string, c: { text: string; rows: number }) => out.write(name, c.text, c.rows);
  write('events.csv', csvOf('event_id', eventIds.map(String)));
  writeBin(out, 'events.bin', eventsBin(eventIds), eventIds.length);
  write('occurrence.csv', csvOf('event_id,period_no,occ_year,occ_month,occ_day', occurrences.map((r) => `${r.eventId},${r.periodNo},${r.occYear},${r.occMonth},${r.occDay}`)));
  writeBin(out, 'occurrence.bin', occurrenceBin(occurrences, years), occurrences.length);
  write('periods.csv', csvOf('period_no,weighting', Array.from({ length: years }, (_, i) => `${i + 1},${1 / years}`)));
  write('returnperiods.csv', csvOf('return_period', RETURN_PERIODS.map(String)));
  writeBin(out, 'returnperiods.bin', int32Bin(RETURN_PERIODS), RETURN_PERIODS.length);
  write('quantile.csv', csvOf('quantile', QUANTILES.map(String)));
  writeBin(out, 'quantile.bin', float32Bin(QUANTILES), QUANTILES.length);
}
