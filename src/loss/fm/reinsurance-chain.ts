/**
 * The reinsurance inuring levels of `catintel oasis run`, one event at a time: the insured losses per
 * output (every loss vector: mean, maximum, exposure, each sample) go through RI_1, its net losses
 * through RI_2, and so on, as Oasis chains its financial module over the RI_n folders (allocation rule
 * 3, which runs as 2). What the run reports, summed over all outputs per vector:
 * - `ceded[n]`: the loss level n+1 takes (Oasis's rl perspective: the level's gross output);
 * - `net`: the loss left after the last level (Oasis's ri perspective).
 */
import fs from 'node:fs';
import { CatintelError } from '../../errors.js';
import { FinancialModule, type FmOutput } from './domain/compute.js';
import { buildStructure, type FmFiles } from './domain/structure.js';
import { readFmFiles } from './read-fm-files.js';
import { InputFiles } from '../io/input-files.js';

/** Oasis runs reinsurance with allocation rule 3: each level's loss is shared back to its items. */
const REINSURANCE_ALLOC_RULE = 3;

/** The RI_n folders of an input directory, as plain data (sent to worker threads). */
export interface ReinsurancePlan {
  levels: FmFiles[];
  /** Whether the ceded losses of each level are wanted (rl); the net of the last level always is. */
  ceded: boolean;
}

/**
 * The RI_n folders of the input in inuring order: as many as ri_layers.json lists (oasislmf writes it
 * beside them), or, without it, RI_1, RI_2 ... while they exist. Empty when there are none.
 */
export function reinsuranceLevels(dir: string | InputFiles): InputFiles[] {
  const input = InputFiles.of(dir);
  const listing = input.path('ri_layers.json');
  if (fs.existsSync(listing)) {
    let count: number;
    try {
      count = Object.keys(JSON.parse(fs.readFileSync(listing, 'utf8'))).length;
    } catch (err) {
      throw new CatintelError(
        'invalid_input',
        `${listing}: not readable JSON (${(err as Error).message.split('\n')[0]}); write the reinsurance files again`,
      );
    }
    const levels = Array.from({ length: count }, (_, i) => input.folder(`RI_${i + 1}`));
    for (const level of levels) {
      if (!level.has('fm_programme.csv'))
        throw new CatintelError(
          'invalid_input',
          `ri_layers.json lists ${count} inuring levels, but ${level.path('fm_programme.csv')} is missing; write the reinsurance files again`,
        );
    }
    return levels;
  }
  const levels: InputFiles[] = [];
  for (let n = 1; input.folder(`RI_${n}`).has('fm_programme.csv'); n++) levels.push(input.folder(`RI_${n}`));
  return levels;
}

/** The RI_n directories of `dir` in inuring order (reinsuranceLevels' folders). */
export function reinsuranceDirs(dir: string | InputFiles): string[] {
  return reinsuranceLevels(dir).map((level) => level.dir);
}

/** The plan of `dir`'s RI_n folders (checked before the run, naming a bad value), or undefined when it has none. */
export function planReinsurance(dir: string | InputFiles, ceded: boolean): ReinsurancePlan | undefined {
  const levels = reinsuranceLevels(dir).map((level) => readFmFiles(level));
  if (levels.length === 0) return undefined;
  for (const files of levels) buildStructure(files, REINSURANCE_ALLOC_RULE);
  return { levels, ceded };
}

export interface ReinsuredEvent {
  /** Per vector, the loss net of every level. */
  net: Float64Array;
  /** Per level, per vector, the loss the level takes (empty unless the plan asks for it). */
  ceded: Float64Array[];
}

export class ReinsuranceChain {
  private readonly engines: FinancialModule[];

  constructor(
    readonly plan: ReinsurancePlan,
    readonly vectors: number,
  ) {
    this.engines = plan.levels.map(
      (files) => new FinancialModule(buildStructure(files, REINSURANCE_ALLOC_RULE), vectors),
    );
  }

  /** One event's insured losses per output through every level. */
  run(insured: FmOutput[]): ReinsuredEvent {
    const ceded: Float64Array[] = [];
    let current: [number, Float64Array][] = insured.map((o) => [o.outputId, o.loss]);
    for (const engine of this.engines) {
      let net: FmOutput[];
      if (this.plan.ceded) {
        const both = engine.runGrossAndNet(current);
        ceded.push(this.sum(both.gross));
        net = both.net;
      } else net = engine.run(current, true);
      current = net.map((o) => [o.outputId, o.loss]);
    }
    return { net: this.sum(current.map(([outputId, loss]) => ({ outputId, loss }))), ceded };
  }

  /** Per vector, the sum over outputs in output id order (so the sum does not depend on arrival order). */
  private sum(outputs: FmOutput[]): Float64Array {
    const total = new Float64Array(this.vectors);
    for (const o of [...outputs].sort((a, b) => a.outputId - b.outputId))
      for (let k = 0; k < this.vectors; k++) total[k] += o.loss[k];
    return total;
  }
}
