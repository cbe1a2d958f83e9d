/**
 * The first difference between losses we computed and a case's expected loss file (ils.csv, rils.csv:
 * event_id, output_id, [loss_factor_idx,] loss). Rows are matched by (event, output, sample), as the
 * order of rows is the engine's and not a rule; a loss matches within 0.1 % (oasislmf's own test
 * tolerance) with 0.01, the precision the files are printed to, as the floor. A row we compute that the
 * file lacks must be below that floor (Oasis leaves zero losses out).
 */
import path from 'node:path';
import { readTable } from '../loss/io/csv.js';
import type { LossRow } from '../loss/fm/run-fm.js';
import type { Difference } from './compare-files.js';

export function lossesClose(got: number, want: number): boolean {
  return Math.abs(got - want) <= Math.max(1e-3 * Math.abs(want), 0.01);
}

export const lossKey = (eventId: number, outputId: number, sample: number): string =>
  `event ${eventId} output ${outputId}${sample ? ` sample ${sample}` : ''}`;

/**
 * `known` holds, by lossKey, values that replace the file's where the case's file is known not to be
 * what oasislmf computes from the same inputs (see known-differences.ts).
 */
export function firstLossDifference(
  name: string,
  ours: readonly LossRow[],
  expectedFile: string,
  known: ReadonlyMap<string, number> = new Map(),
): Difference | undefined {
  const t = readTable(expectedFile, ['event_id', 'output_id', 'loss']);
  const ev = t.col('event_id');
  const out = t.col('output_id');
  const loss = t.col('loss');
  const sample = t.has('loss_factor_idx') ? t.col('loss_factor_idx') : new Float64Array(t.rows);
  const mine = new Map(ours.map((r) => [lossKey(r.eventId, r.outputId, r.sample), r.loss]));
  for (let i = 0; i < t.rows; i++) {
    const key = lossKey(ev[i], out[i], sample[i]);
    const got = mine.get(key) ?? 0;
    const want = known.get(key) ?? loss[i];
    if (!lossesClose(got, want)) return { file: name, line: i + 2, detail: `${key}: expected ${want}, ours ${got}` };
    mine.delete(key);
  }
  for (const [key, got] of mine)
    if (!lossesClose(got, 0))
      return { file: name, detail: `${key}: ours ${got}, ${path.basename(expectedFile)} has no row (no loss)` };
  return undefined;
}
