/**
 * Reads the Oasis financial files of one directory (fm_programme, fm_policytc, fm_profile with or
 * without the step columns, fm_xref, and items/coverages when present) into the engine's input.
 */
import path from 'node:path';
import { readTable } from '../io/csv.js';
import { InputFiles } from '../io/input-files.js';
import { CatintelError } from '../../errors.js';
import type { ProfileStep } from './domain/profile.js';
import type { FmFiles } from './domain/structure.js';

/** Per event, in arrival order: (item or output id, loss per sample). */
export interface EventLosses {
  samples: number;
  events: Map<number, [number, Float64Array][]>;
}

const STEP_COLUMNS = [
  'step_id',
  'trigger_start',
  'trigger_end',
  'payout_start',
  'payout_end',
  'limit2',
  'scale1',
  'scale2',
];
const TERM_COLUMNS = [
  'deductible1',
  'deductible2',
  'deductible3',
  'attachment1',
  'limit1',
  'share1',
  'share2',
  'share3',
];

const int32 = (a: Float64Array): Int32Array => Int32Array.from(a);

export function readFmFiles(dir: string | InputFiles): FmFiles {
  const input = InputFiles.of(dir);
  const prog = input.table('fm_programme.csv', ['from_agg_id', 'level_id', 'to_agg_id']);
  const pol = input.table('fm_policytc.csv', ['level_id', 'agg_id', 'layer_id', 'profile_id']);
  const prof = input.table('fm_profile.csv', ['profile_id', 'calcrule_id']);
  const xref = input.table('fm_xref.csv', ['output', 'agg_id', 'layer_id']);
  // A step policy is told by its columns: step_id and the trigger/payout terms.
  const stepped = prof.has('step_id');
  const column = (name: string): Float64Array => (prof.has(name) ? prof.col(name) : new Float64Array(prof.rows));
  const ids = prof.col('profile_id');
  const rules = prof.col('calcrule_id');
  const terms = Object.fromEntries([...TERM_COLUMNS, ...STEP_COLUMNS].map((c) => [c, column(c)]));
  const profiles: ProfileStep[] = [];
  for (let i = 0; i < prof.rows; i++) {
    profiles.push({
      profileId: ids[i],
      calcrule: rules[i],
      deductible1: terms.deductible1[i],
      deductible2: terms.deductible2[i],
      deductible3: terms.deductible3[i],
      attachment1: terms.attachment1[i],
      limit1: terms.limit1[i],
      share1: terms.share1[i],
      share2: terms.share2[i],
      share3: terms.share3[i],
      stepId: stepped ? terms.step_id[i] : 1,
      triggerStart: terms.trigger_start[i],
      triggerEnd: terms.trigger_end[i],
      payoutStart: terms.payout_start[i],
      payoutEnd: terms.payout_end[i],
      limit2: terms.limit2[i],
      scale1: terms.scale1[i],
      scale2: terms.scale2[i],
    });
  }
  const files: FmFiles = {
    programme: {
      from: int32(prog.col('from_agg_id')),
      level: int32(prog.col('level_id')),
      to: int32(prog.col('to_agg_id')),
    },
    policytc: {
      level: int32(pol.col('level_id')),
      agg: int32(pol.col('agg_id')),
      layer: int32(pol.col('layer_id')),
      profile: int32(pol.col('profile_id')),
    },
    profiles,
    stepped,
    xref: { output: int32(xref.col('output')), agg: int32(xref.col('agg_id')), layer: int32(xref.col('layer_id')) },
  };
  // % of TIV terms need the TIV per item: items.csv and coverages.csv, when the directory has them.
  if (input.has('items.csv') && input.has('coverages.csv')) {
    const items = input.table('items.csv', ['item_id', 'coverage_id']);
    const cov = input.table('coverages.csv', ['coverage_id', 'tiv']);
    const itemIds = items.col('item_id');
    const covIds = items.col('coverage_id');
    files.itemCoverage = new Map(Array.from(itemIds, (id, i) => [id, covIds[i]]));
    const cids = cov.col('coverage_id');
    const tivs = cov.col('tiv');
    files.coverageTiv = new Map(Array.from(cids, (id, i) => [id, tivs[i]]));
  }
  return files;
}

/**
 * Losses per event in the guls.csv / ils.csv layout (event_id, an id column, loss), in file order.
 * A `loss_factor_idx` column (0-based, as oasislmf's deterministic runs write it) gives several
 * samples per (event, id); without it there is one.
 */
export function readEventLosses(file: string, idColumn: 'item_id' | 'output_id'): EventLosses {
  const t = readTable(file, ['event_id', idColumn, 'loss']);
  const ev = t.col('event_id');
  const id = t.col(idColumn);
  const loss = t.col('loss');
  const sample = t.has('loss_factor_idx') ? t.col('loss_factor_idx') : new Float64Array(t.rows);
  let samples = 1;
  for (let i = 0; i < t.rows; i++) {
    if (!Number.isInteger(sample[i]) || sample[i] < 0)
      throw new CatintelError(
        'invalid_input',
        `${path.basename(file)} line ${i + 2}: loss_factor_idx ${sample[i]} must be a whole number from 0`,
      );
    samples = Math.max(samples, sample[i] + 1);
  }
  const byEvent = new Map<number, Map<number, Float64Array>>();
  for (let i = 0; i < t.rows; i++) {
    let ids = byEvent.get(ev[i]);
    if (!ids) byEvent.set(ev[i], (ids = new Map()));
    let losses = ids.get(id[i]);
    if (!losses) ids.set(id[i], (losses = new Float64Array(samples)));
    losses[sample[i]] += loss[i];
  }
  const events = new Map<number, [number, Float64Array][]>();
  for (const [e, ids] of byEvent) events.set(e, [...ids]);
  return { samples, events };
}
