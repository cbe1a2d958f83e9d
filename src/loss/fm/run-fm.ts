/**
 * Insured and reinsured losses from ground-up losses: the direct-insurance programme of a directory,
 * then each reinsurance inuring level (RI_1, RI_2 ... beside it) on the net losses of the level before,
 * as Oasis runs them (direct insurance with allocation rule 2 by default, reinsurance with rule 3, which
 * runs as 2, reporting the loss net of each level).
 */
import fs from 'node:fs';
import path from 'node:path';
import { FinancialModule } from './domain/compute.js';
import { buildStructure, type FmStructure } from './domain/structure.js';
import { readFmFiles, type EventLosses } from './read-fm-files.js';

/** Loss per (event, output id, sample): the ils.csv / rils.csv layout. */
export interface LossRow {
  eventId: number;
  outputId: number;
  /** 0-based; written as loss_factor_idx when there is more than one sample. */
  sample: number;
  loss: number;
}

/** Runs one structure on each event's losses; `net` reports losses net of the programme. */
function runLevel(structure: FmStructure, input: EventLosses, net: boolean): EventLosses {
  const fm = new FinancialModule(structure, input.samples);
  const events = new Map<number, [number, Float64Array][]>();
  for (const [eventId, rows] of input.events) {
    events.set(
      eventId,
      fm.run(rows, net).map((o) => [o.outputId, o.loss]),
    );
  }
  return { samples: input.samples, events };
}

export function insuredLosses(dir: string, ground: EventLosses, allocRule = 2): EventLosses {
  return runLevel(buildStructure(readFmFiles(dir), allocRule), ground, false);
}

/** The RI_n directories beside the direct-insurance files, in inuring order. */
export function reinsuranceLevels(dir: string): string[] {
  const levels: string[] = [];
  for (let n = 1; fs.existsSync(path.join(dir, `RI_${n}`, 'fm_programme.csv')); n++)
    levels.push(path.join(dir, `RI_${n}`));
  return levels;
}

/** Losses net of every reinsurance level, each level run on the previous level's net losses. */
export function netOfReinsurance(levels: string[], insured: EventLosses, allocRule = 3): EventLosses {
  let losses = insured;
  for (const level of levels) losses = runLevel(buildStructure(readFmFiles(level), allocRule), losses, true);
  return losses;
}

/** Rows with a loss, as Oasis writes ils.csv. */
export function lossRows(losses: EventLosses): LossRow[] {
  const rows: LossRow[] = [];
  for (const [eventId, list] of losses.events) {
    for (const [outputId, loss] of list)
      for (let s = 0; s < losses.samples; s++)
        if (loss[s] !== 0) rows.push({ eventId, outputId, sample: s, loss: loss[s] });
  }
  return rows;
}
